package postgres

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"

	"tengen"
)

// Compile-time check that ChatService implements the interface.
var _ tengen.ChatService = (*ChatService)(nil)

// ChatService stores chat messages and mutes in PostgreSQL.
type ChatService struct {
	db *DB
}

// NewChatService returns a ChatService on db.
func NewChatService(db *DB) *ChatService {
	return &ChatService{db: db}
}

const chatColumns = `m.id, m.room, COALESCE(m.game_id, 0), m.author_id, u.name, m.text, m.move_number, m.created_at, m.deleted`

func chatFields(m *tengen.ChatMessage) []any {
	return []any{&m.ID, &m.Room, &m.GameID, &m.AuthorID, &m.AuthorName, &m.Text, &m.MoveNumber, &m.CreatedAt, &m.Deleted}
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
	defer tx.rollback()
	author, err := findUser(ctx, tx, "id = $1", m.AuthorID)
	if err != nil {
		return err
	}
	if author.Disabled {
		return tengen.Errorf(tengen.EFORBIDDEN, "A disabled account cannot chat.")
	}
	moves := 0
	var game any
	if m.Room != tengen.ChatLobby {
		// FOR SHARE: a move stored at the same time either comes before
		// the message or waits for it, so the move number is exact.
		err := tx.QueryRow(ctx, `SELECT move_count FROM games WHERE id = $1 FOR SHARE`, m.GameID).Scan(&moves)
		if noRows(err) {
			return tengen.Errorf(tengen.ENOTFOUND, "Game not found.")
		} else if err != nil {
			return err
		}
		game = m.GameID
	}
	id, err := tx.insertID(ctx, `INSERT INTO chat_messages (room, game_id, author_id, text, move_number, created_at)
		VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`, string(m.Room), game, m.AuthorID, text, moves, tx.now)
	if err != nil {
		return err
	}
	if err := tx.commit(ctx); err != nil {
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
	var where []string
	var args []any
	arg := func(cond string, v any) {
		args = append(args, v)
		where = append(where, fmt.Sprintf(cond, len(args)))
	}
	arg("m.room = $%d", string(f.Room))
	if f.Room == tengen.ChatLobby {
		where = append(where, "m.game_id IS NULL")
	} else {
		arg("m.game_id = $%d", f.GameID)
	}
	if !f.IncludeDeleted {
		where = append(where, "NOT m.deleted")
	}
	if f.BeforeID != 0 {
		arg("m.id < $%d", f.BeforeID)
	}
	if f.ViewerID != 0 {
		arg("m.author_id NOT IN (SELECT muted_id FROM chat_mutes WHERE muter_id = $%d)", f.ViewerID)
	}
	q := `SELECT ` + chatColumns + ` FROM chat_messages m JOIN users u ON u.id = m.author_id WHERE ` +
		strings.Join(where, " AND ") + ` ORDER BY m.id DESC`
	if f.Limit > 0 {
		args = append(args, f.Limit)
		q += fmt.Sprintf(` LIMIT $%d`, len(args))
	}
	tx, err := s.db.BeginTx(ctx, false)
	if err != nil {
		return nil, err
	}
	defer tx.rollback()
	rows, err := tx.Query(ctx, q, args...)
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
	defer tx.rollback()
	return findChatMessage(ctx, tx, id)
}

func findChatMessage(ctx context.Context, tx *Tx, id int64) (*tengen.ChatMessage, error) {
	m := new(tengen.ChatMessage)
	err := tx.QueryRow(ctx, `SELECT `+chatColumns+` FROM chat_messages m JOIN users u ON u.id = m.author_id WHERE m.id = $1`, id).
		Scan(chatFields(m)...)
	if noRows(err) {
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
	defer tx.rollback()
	if _, err := tx.exec(ctx, `UPDATE chat_messages SET deleted = TRUE WHERE id = $1`, id); err != nil {
		return nil, err
	}
	m, err := findChatMessage(ctx, tx, id)
	if err != nil {
		return nil, err
	}
	return m, tx.commit(ctx)
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
	defer tx.rollback()
	for _, id := range []int64{muterID, mutedID} {
		if _, err := findUser(ctx, tx, "id = $1", id); err != nil {
			return err
		}
	}
	if muted {
		_, err = tx.exec(ctx, `INSERT INTO chat_mutes (muter_id, muted_id, created_at) VALUES ($1, $2, $3)
			ON CONFLICT (muter_id, muted_id) DO NOTHING`, muterID, mutedID, tx.now)
	} else {
		_, err = tx.exec(ctx, `DELETE FROM chat_mutes WHERE muter_id = $1 AND muted_id = $2`, muterID, mutedID)
	}
	if err != nil {
		return err
	}
	return tx.commit(ctx)
}

// FindMutedUsers implements tengen.ChatService.
func (s *ChatService) FindMutedUsers(ctx context.Context, muterID int64) ([]string, error) {
	return queryColumn[string](ctx, s.db, `SELECT u.name FROM chat_mutes c JOIN users u ON u.id = c.muted_id
		WHERE c.muter_id = $1 ORDER BY u.name_key`, muterID)
}

// FindMuters implements tengen.ChatService.
func (s *ChatService) FindMuters(ctx context.Context, mutedID int64) ([]int64, error) {
	return queryColumn[int64](ctx, s.db, `SELECT muter_id FROM chat_mutes WHERE muted_id = $1 ORDER BY muter_id`, mutedID)
}

// queryColumn runs a query of one column in a read transaction and returns
// its values.
func queryColumn[T any](ctx context.Context, db *DB, query string, args ...any) ([]T, error) {
	tx, err := db.BeginTx(ctx, false)
	if err != nil {
		return nil, err
	}
	defer tx.rollback()
	rows, err := tx.Query(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowTo[T])
}
