package http

import (
	"cmp"
	"context"
	nethttp "net/http"
	"slices"
	"strconv"

	"tengen"
)

// Chat (docs/API.md, "Chat"): each game has a players' room and a
// spectators' room, the server one lobby room. Who reads and writes which
// room is tengen.ChatRoomFor and tengen.ChatVisible; this file adds the
// limits (length through storage, rate per user), mutes, the admin's
// deletion and live delivery over the game WebSockets of package hub.

// chatHistory is how many of the newest messages of a room a GET returns.
const chatHistory = 200

func (s *Server) chatRoutes(mux *nethttp.ServeMux) {
	mux.HandleFunc("GET /api/v1/games/{id}/chat", s.apiGameChat)
	mux.HandleFunc("POST /api/v1/games/{id}/chat", s.apiPostGameChat)
	mux.HandleFunc("GET /api/v1/lobby/chat", s.apiLobbyChat)
	mux.HandleFunc("POST /api/v1/lobby/chat", s.apiPostLobbyChat)
	mux.HandleFunc("POST /api/v1/users/{name}/mute", s.apiMute(true))
	mux.HandleFunc("DELETE /api/v1/users/{name}/mute", s.apiMute(false))
	mux.HandleFunc("DELETE /api/v1/chat/{id}", s.apiDeleteChat)
}

// chatRequest is the body of a new message.
type chatRequest struct {
	Text string `json:"text"`
}

// chatResponse is what a reader of a chat gets: the messages of the rooms
// they may read, oldest first, the room they write in ("" when they may
// not write), and the names they muted.
type chatResponse struct {
	Messages []*tengen.ChatMessage `json:"messages"`
	Rooms    []tengen.ChatRoom     `json:"rooms"`
	Room     tengen.ChatRoom       `json:"room"`
	Muted    []string              `json:"muted"`
}

// messageResponse answers a new or deleted message.
type messageResponse struct {
	Message *tengen.ChatMessage `json:"message"`
}

// chatEvent is a live chat message, or the deletion of one, on a socket.
type chatEvent struct {
	Type string              `json:"type"` // "chat" or "chat-deleted"
	Chat *tengen.ChatMessage `json:"chat,omitempty"`
	// ChatID is the id of a deleted message ("id" is a reply's).
	ChatID int64 `json:"chatId,omitempty"`
}

// readChat returns the messages of the rooms the viewer may read, merged in
// the order they were said.
func (s *Server) readChat(ctx context.Context, viewerID int64, rooms []tengen.ChatRoom, gameID int64) (*chatResponse, error) {
	out := &chatResponse{Messages: []*tengen.ChatMessage{}, Rooms: rooms, Muted: []string{}}
	for _, room := range rooms {
		msgs, err := s.svc.Chat.FindChatMessages(ctx, tengen.ChatFilter{Room: room, GameID: gameID, ViewerID: viewerID, Limit: chatHistory})
		if err != nil {
			return nil, err
		}
		out.Messages = append(out.Messages, msgs...)
	}
	sortChat(out.Messages)
	if viewerID != 0 {
		muted, err := s.svc.Chat.FindMutedUsers(ctx, viewerID)
		if err != nil {
			return nil, err
		}
		out.Muted = muted
	}
	return out, nil
}

// sortChat orders messages by id, which is the order they were stored in.
func sortChat(msgs []*tengen.ChatMessage) {
	slices.SortFunc(msgs, func(a, b *tengen.ChatMessage) int { return cmp.Compare(a.ID, b.ID) })
}

// gameChat reads the game of the path and the chat its viewer may read.
func (s *Server) gameChat(r *nethttp.Request) (*chatResponse, error) {
	id, err := pathID(r)
	if err != nil {
		return nil, err
	}
	g, err := s.svc.Games.FindGameByID(r.Context(), id)
	if err != nil {
		return nil, err
	}
	viewer := userID(r)
	var rooms []tengen.ChatRoom
	for _, room := range []tengen.ChatRoom{tengen.ChatPlayers, tengen.ChatSpectators} {
		if tengen.ChatVisible(g, viewer, room) {
			rooms = append(rooms, room)
		}
	}
	out, err := s.readChat(r.Context(), viewer, rooms, g.ID)
	if err != nil {
		return nil, err
	}
	if viewer != 0 {
		out.Room = tengen.ChatRoomFor(g, viewer)
	}
	return out, nil
}

func (s *Server) apiGameChat(w nethttp.ResponseWriter, r *nethttp.Request) {
	out, err := s.gameChat(r)
	if err != nil {
		s.error(w, r, err)
		return
	}
	writeJSON(w, nethttp.StatusOK, out)
}

// allowChat takes one of the user's chat tokens, shared by all rooms and
// by the API and the sockets.
func (s *Server) allowChat(ctx context.Context, userID int64) error {
	if ok, wait := s.chatLimit.take(ctx, strconv.FormatInt(userID, 10)); !ok {
		return tengen.Errorf(tengen.ERATELIMIT, "You are sending chat messages too fast; wait %d seconds.", int(wait.Seconds())+1)
	}
	return nil
}

// postGameChat stores a message of userID in the room of game gameID that
// is theirs and delivers it to the game's sockets that may read it.
func (s *Server) postGameChat(ctx context.Context, gameID, userID int64, text string) (*tengen.ChatMessage, error) {
	if userID == 0 {
		return nil, tengen.Errorf(tengen.EUNAUTHORIZED, "You must log in first.")
	}
	g, err := s.svc.Games.FindGameByID(ctx, gameID)
	if err != nil {
		return nil, err
	}
	// The text is checked before a token is taken, so that a refused
	// message costs nothing.
	if _, err := tengen.NormalizeChatText(text); err != nil {
		return nil, err
	}
	if err := s.allowChat(ctx, userID); err != nil {
		return nil, err
	}
	m := &tengen.ChatMessage{Room: tengen.ChatRoomFor(g, userID), GameID: g.ID, AuthorID: userID, Text: text}
	if err := s.svc.Chat.CreateChatMessage(ctx, m); err != nil {
		return nil, err
	}
	s.publishGameChat(ctx, g, m)
	return m, nil
}

func (s *Server) apiPostGameChat(w nethttp.ResponseWriter, r *nethttp.Request) {
	var req chatRequest
	id, _, u, ok := s.commandRequest(w, r, &req)
	if !ok {
		return
	}
	m, err := s.postGameChat(r.Context(), id, u.ID, req.Text)
	if err != nil {
		s.error(w, r, err)
		return
	}
	writeJSON(w, nethttp.StatusCreated, messageResponse{m})
}

// muters returns the set of users who muted author, whose screens a live
// message of author skips (empty without a chat service: mutes live there).
func (s *Server) muters(ctx context.Context, author int64) map[int64]bool {
	if s.svc.Chat == nil {
		return nil
	}
	ids, err := s.svc.Chat.FindMuters(ctx, author)
	if err != nil {
		// The message is stored; delivering it to a muter is the lesser
		// harm than not delivering it at all.
		s.log.Error("reading mutes", "author", author, "err", err)
	}
	skip := make(map[int64]bool, len(ids))
	for _, id := range ids {
		skip[id] = true
	}
	return skip
}

// publishGameChat sends a new game message to the sockets watching the
// game, on every instance (site.go), whose users may read its room and did
// not mute its author. A chat message is no change to the game, so it does
// not pass through the play service: it goes straight to the same sockets
// the game's events reach.
func (s *Server) publishGameChat(ctx context.Context, g *tengen.Game, m *tengen.ChatMessage) {
	s.site(siteMsg{Kind: "game-chat", Game: newChatGame(g), Event: mustJSON(chatEvent{Type: "chat", Chat: m}),
		Skip: ids(s.muters(ctx, m.AuthorID))})
}

func (s *Server) apiLobbyChat(w nethttp.ResponseWriter, r *nethttp.Request) {
	u, err := requireUser(r)
	if err != nil {
		s.error(w, r, err)
		return
	}
	out, err := s.readChat(r.Context(), u.ID, []tengen.ChatRoom{tengen.ChatLobby}, 0)
	if err != nil {
		s.error(w, r, err)
		return
	}
	out.Room = tengen.ChatLobby
	writeJSON(w, nethttp.StatusOK, out)
}

func (s *Server) apiPostLobbyChat(w nethttp.ResponseWriter, r *nethttp.Request) {
	m, err := s.postLobbyChat(w, r)
	if err != nil {
		s.error(w, r, err)
		return
	}
	s.site(siteMsg{Kind: "lobby-chat", Event: mustJSON(chatEvent{Type: "chat", Chat: m}), Skip: ids(s.muters(r.Context(), m.AuthorID))})
	writeJSON(w, nethttp.StatusCreated, messageResponse{m})
}

// postLobbyChat stores the logged-in user's message in the lobby.
func (s *Server) postLobbyChat(w nethttp.ResponseWriter, r *nethttp.Request) (*tengen.ChatMessage, error) {
	var req chatRequest
	u, err := requireUser(r)
	if err != nil {
		return nil, err
	}
	if err := readJSON(w, r, &req); err != nil {
		return nil, err
	}
	if _, err := tengen.NormalizeChatText(req.Text); err != nil {
		return nil, err
	}
	if err := s.allowChat(r.Context(), u.ID); err != nil {
		return nil, err
	}
	m := &tengen.ChatMessage{Room: tengen.ChatLobby, AuthorID: u.ID, Text: req.Text}
	return m, s.svc.Chat.CreateChatMessage(r.Context(), m)
}

// publishLobbyChat sends ev (a chatEvent, "chat" or "chat-deleted") to
// every open lobby socket here of a logged-in user (the lobby chat is
// theirs) who is not in skip (has not muted the author); the "lobby-chat"
// site message calls it on every instance.
func (s *Server) publishLobbyChat(ev []byte, skip map[int64]bool) {
	s.hub.each(func(c *wsClient) bool { return c.lobby && c.userID != 0 && !skip[c.userID] },
		func(c *wsClient) { c.enqueue(ev) })
}

// muteResponse answers a mute or unmute with the names now muted.
type muteResponse struct {
	Muted []string `json:"muted"`
}

// apiMute mutes (or unmutes) the user of the path for the logged-in user.
func (s *Server) apiMute(muted bool) nethttp.HandlerFunc {
	return func(w nethttp.ResponseWriter, r *nethttp.Request) {
		u, err := requireUser(r)
		var other *tengen.User
		if err == nil {
			other, err = s.svc.Users.FindUserByName(r.Context(), r.PathValue("name"))
		}
		if err == nil {
			err = s.svc.Chat.SetMuted(r.Context(), u.ID, other.ID, muted)
		}
		var names []string
		if err == nil {
			names, err = s.svc.Chat.FindMutedUsers(r.Context(), u.ID)
		}
		if err != nil {
			s.error(w, r, err)
			return
		}
		writeJSON(w, nethttp.StatusOK, muteResponse{names})
	}
}

// apiDeleteChat lets an admin delete a message; its readers' screens drop
// it at once.
func (s *Server) apiDeleteChat(w nethttp.ResponseWriter, r *nethttp.Request) {
	a, err := requireAdmin(r)
	if err != nil {
		s.error(w, r, err)
		return
	}
	id, err := pathID(r)
	var m *tengen.ChatMessage
	if err == nil {
		m, err = s.svc.Chat.DeleteChatMessage(r.Context(), id)
	}
	if err != nil {
		s.adminLog(r, a, "delete chat message", err, "message", r.PathValue("id"))
		s.error(w, r, err)
		return
	}
	s.adminLog(r, a, "delete chat message", nil, "message", m.ID, "author", m.AuthorName, "room", m.Room, "game", m.GameID)
	// Every instance drops it from its sockets' screens.
	del := siteMsg{Kind: "chat-deleted", Event: mustJSON(chatEvent{Type: "chat-deleted", ChatID: m.ID})}
	if m.Room != tengen.ChatLobby {
		del.Game = &chatGame{ID: m.GameID}
	}
	s.site(del)
	writeJSON(w, nethttp.StatusOK, messageResponse{m})
}

// mutedNames returns the names userID muted, for leaving their messages out
// of what userID reads (nil for visitors or without a chat service).
func (s *Server) mutedNames(ctx context.Context, userID int64) map[string]bool {
	if s.svc.Chat == nil || userID == 0 {
		return nil
	}
	names, err := s.svc.Chat.FindMutedUsers(ctx, userID)
	if err != nil {
		s.log.Error("reading mutes", "user", userID, "err", err)
		return nil
	}
	set := make(map[string]bool, len(names))
	for _, n := range names {
		set[n] = true
	}
	return set
}
