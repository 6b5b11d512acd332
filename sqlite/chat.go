package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"slices"
	"strings"

	"tengen"
)

// Compile-time check that ChatService implements the interface.
var _ tengen.ChatService = (*ChatService)(nil)

// ChatService stores chat messages and mutes in SQLite.
type ChatService struct {
	db *DB
}

// NewChatService returns a ChatService on db.
func NewChatService(db *DB) *ChatService {
	return &ChatService{db: db}
}

const chatColumns = `m.id, m.room, COALESCE(m.game_id, 0), m.author_id, u.name, m.text, m.move_number, m.created_at, m.deleted`

func chatFields(m *tengen.ChatMessage) []any {
	return []any{&m.ID, &m.Room, &m.GameID, &m.AuthorID, &m.AuthorName, &m.Text, &m.MoveNumber, timeText{&m.CreatedAt}, &m.Deleted}
}

// CreateChatMessage implements tengen.ChatService.
func (s *ChatService) CreateChatMessage(ctx context.Context, m *tengen.ChatMessage) error {
	text, err := m.CheckNew()
	if err != nil {
		return err
	}
	tx, err := s.db.BeginTx(ctx, true)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	author, err := findUser(ctx, tx, "id = ?", m.AuthorID)
	if err != nil {
		return err
	}
	if author.Disabled {
		return tengen.Errorf(tengen.EFORBIDDEN, "A disabled account cannot chat.")
	}
	moves := 0
	var game any
	if m.Room != tengen.ChatLobby {
		err := tx.QueryRowContext(ctx, `SELECT move_count FROM games WHERE id = ?`, m.GameID).Scan(&moves)
		if errors.Is(err, sql.ErrNoRows) {
			return tengen.Errorf(tengen.ENOTFOUND, "Game not found.")
		} else if err != nil {
			return err
		}
		game = m.GameID
	}
	id, err := tx.nextID(ctx, "chat_messages")
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO chat_messages (id, room, game_id, author_id, text, move_number, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?)`, id, string(m.Room), game, m.AuthorID, text, moves, formatTime(tx.now)); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	m.ID, m.AuthorName, m.Text, m.MoveNumber, m.CreatedAt, m.Deleted = id, author.Name, text, moves, tx.now, false
	if m.Room == tengen.ChatLobby {
		m.GameID = 0
	}
	return nil
}

// FindChatMessages implements tengen.ChatService.
func (s *ChatService) FindChatMessages(ctx context.Context, f tengen.ChatFilter) ([]*tengen.ChatMessage, error) {
	where, args := []string{"m.room = ?"}, []any{string(f.Room)}
	if f.Room == tengen.ChatLobby {
		where = append(where, "m.game_id IS NULL")
	} else {
		where, args = append(where, "m.game_id = ?"), append(args, f.GameID)
	}
	if !f.IncludeDeleted {
		where = append(where, "m.deleted = 0")
	}
	if f.BeforeID != 0 {
		where, args = append(where, "m.id < ?"), append(args, f.BeforeID)
	}
	if f.ViewerID != 0 {
		where = append(where, "m.author_id NOT IN (SELECT muted_id FROM chat_mutes WHERE muter_id = ?)")
		args = append(args, f.ViewerID)
	}
	q := `SELECT ` + chatColumns + ` FROM chat_messages m JOIN users u ON u.id = m.author_id WHERE ` +
		strings.Join(where, " AND ") + ` ORDER BY m.id DESC`
	if f.Limit > 0 {
		q += ` LIMIT ?`
		args = append(args, f.Limit)
	}
	tx, err := s.db.BeginTx(ctx, false)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	rows, err := tx.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*tengen.ChatMessage
	for rows.Next() {
		m := new(tengen.ChatMessage)
		if err := rows.Scan(chatFields(m)...); err != nil {
			return nil, err
		}
		out = append(out, m)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	// Newest first picks the last Limit; the caller wants them in order.
	slices.Reverse(out)
	return out, nil
}

// FindChatMessageByID implements tengen.ChatService.
func (s *ChatService) FindChatMessageByID(ctx context.Context, id int64) (*tengen.ChatMessage, error) {
	tx, err := s.db.BeginTx(ctx, false)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	return findChatMessage(ctx, tx, id)
}

func findChatMessage(ctx context.Context, tx *Tx, id int64) (*tengen.ChatMessage, error) {
	m := new(tengen.ChatMessage)
	err := tx.QueryRowContext(ctx, `SELECT `+chatColumns+` FROM chat_messages m JOIN users u ON u.id = m.author_id WHERE m.id = ?`, id).
		Scan(chatFields(m)...)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, tengen.Errorf(tengen.ENOTFOUND, "Chat message not found.")
	}
	return m, err
}

// DeleteChatMessage implements tengen.ChatService.
func (s *ChatService) DeleteChatMessage(ctx context.Context, id int64) (*tengen.ChatMessage, error) {
	tx, err := s.db.BeginTx(ctx, true)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `UPDATE chat_messages SET deleted = 1 WHERE id = ?`, id); err != nil {
		return nil, err
	}
	m, err := findChatMessage(ctx, tx, id)
	if err != nil {
		return nil, err
	}
	return m, tx.Commit()
}

// SetMuted implements tengen.ChatService.
func (s *ChatService) SetMuted(ctx context.Context, muterID, mutedID int64, muted bool) error {
	if muterID == mutedID {
		return tengen.Errorf(tengen.EINVALID, "You cannot mute yourself.")
	}
	tx, err := s.db.BeginTx(ctx, true)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for _, id := range []int64{muterID, mutedID} {
		if _, err := findUser(ctx, tx, "id = ?", id); err != nil {
			return err
		}
	}
	if muted {
		_, err = tx.ExecContext(ctx, `INSERT INTO chat_mutes (muter_id, muted_id, created_at) VALUES (?, ?, ?)
			ON CONFLICT (muter_id, muted_id) DO NOTHING`, muterID, mutedID, formatTime(tx.now))
	} else {
		_, err = tx.ExecContext(ctx, `DELETE FROM chat_mutes WHERE muter_id = ? AND muted_id = ?`, muterID, mutedID)
	}
	if err != nil {
		return err
	}
	return tx.Commit()
}

// FindMutedUsers implements tengen.ChatService.
func (s *ChatService) FindMutedUsers(ctx context.Context, muterID int64) ([]string, error) {
	return queryColumn[string](ctx, s.db, `SELECT u.name FROM chat_mutes c JOIN users u ON u.id = c.muted_id
		WHERE c.muter_id = ? ORDER BY u.name_key`, muterID)
}

// FindMuters implements tengen.ChatService.
func (s *ChatService) FindMuters(ctx context.Context, mutedID int64) ([]int64, error) {
	return queryColumn[int64](ctx, s.db, `SELECT muter_id FROM chat_mutes WHERE muted_id = ? ORDER BY muter_id`, mutedID)
}

// queryColumn runs a query of one column in a read transaction and returns
// its values.
func queryColumn[T any](ctx context.Context, db *DB, query string, args ...any) ([]T, error) {
	tx, err := db.BeginTx(ctx, false)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	rows, err := tx.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []T{}
	for rows.Next() {
		var v T
		if err := rows.Scan(&v); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}
