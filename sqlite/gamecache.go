package sqlite

import (
	"strings"
	"sync"

	"tengen"
)

// gameCache keeps the game each write of the move path returned, so that
// the next move of that game need not read it again (GameService.AppendMove):
// under load that read was the largest single cost of a move. A cached game
// is used only where reading it would give the same result:
//
//   - The columns of a game that a move changes (move count, turn, status,
//     result, time of the update) are set by the move's own guarded UPDATE,
//     which refuses the move unless the stored move count is the one
//     before it and the game is not finished; the move's write then fills
//     them in from what it stored. The other columns (players, settings,
//     creation) never change after a game is created.
//   - The players' rows change outside the moves through statements of this
//     package ("UPDATE users", see Tx.ExecContext), after which every entry
//     is stale, and when a rated game ends, after which the entries holding
//     either player are (invalidateUsers).
//
// Like the single write connection, the cache assumes that this process is
// the only one that writes the file (several servers share PostgreSQL, not
// SQLite). An entry records the version of the cache at which its game was read;
// bumping the version after a commit makes the entries read before it
// stale. Entries of finished games are dropped, and the whole cache is
// emptied when it holds maxCachedGames.
type gameCache struct {
	mu      sync.Mutex // guards every field
	games   map[int64]cachedGame
	version uint64
	// allFrom is the version from which entries are valid at all, and
	// users the version at which each user's row last changed in a move's
	// write.
	allFrom uint64
	users   map[int64]uint64
}

// cachedGame is a game as a write returned it, read at version.
type cachedGame struct {
	g       *tengen.Game
	version uint64
}

// maxCachedGames bounds the cache (about 1 KiB a game with its players).
const maxCachedGames = 20_000

// begin returns the version to record for a game read from now on.
func (c *gameCache) begin() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.version
}

// get returns a copy of game id as cached with the version it was read at,
// or nil when the cache has no valid entry.
func (c *gameCache) get(id int64) (*tengen.Game, uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.games[id]
	if !ok || e.version < c.allFrom || c.users[e.g.BlackID] > e.version || c.users[e.g.WhiteID] > e.version {
		return nil, 0
	}
	g := *e.g
	return &g, e.version
}

// put caches g, read at version; the caller must not change g afterwards.
// A finished game is dropped instead.
func (c *gameCache) put(g *tengen.Game, version uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if g.Status == tengen.GameFinished {
		delete(c.games, g.ID)
		return
	}
	if c.games == nil || len(c.games) >= maxCachedGames {
		c.games = map[int64]cachedGame{}
		c.users = map[int64]uint64{}
		c.version++
		c.allFrom = c.version
		if version < c.allFrom {
			return
		}
	}
	c.games[g.ID] = cachedGame{g: g, version: version}
}

// drop forgets game id.
func (c *gameCache) drop(id int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.games, id)
}

// invalidateAll makes every entry stale; it is called after a commit that
// changed users rows.
func (c *gameCache) invalidateAll() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.version++
	c.allFrom = c.version
}

// invalidateUsers makes the entries that hold one of ids stale; it is called
// after a commit that changed their rows (a rated game's end).
func (c *gameCache) invalidateUsers(ids ...int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.version++
	if c.users == nil {
		c.users = map[int64]uint64{}
	}
	for _, id := range ids {
		c.users[id] = c.version
	}
}

// writesUsers reports whether a statement may change users rows, for
// Tx.ExecContext.
func writesUsers(query string) bool {
	return strings.HasPrefix(query, "UPDATE users") || strings.HasPrefix(query, "DELETE FROM users")
}
