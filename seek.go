package tengen

import (
	"context"
	"time"
)

// Seek is one player's wish for a quick-match game (docs/API.md, "Quick
// match") as the instances of a deployment share it in storage.
type Seek struct {
	UserID int64
	// Instance names the instance whose socket asked; that instance
	// keeps the seek alive (SeekService.KeepSeeks) while the socket is
	// open.
	Instance  string
	BoardSize int
	Speed     string
	// Rank is RankValue of the user's rank when the seek was made.
	Rank  int
	Since time.Time
}

// SeekService keeps the quick-match seeks of several instances on one
// database, so that two players seeking on different instances are paired,
// and each seek at most once (package postgres). With one instance
// (SQLite) the seeks stay in the memory of package http and there is no
// SeekService.
type SeekService interface {
	// PutSeek stores s in place of any seek of the same user, alive at
	// now.
	PutSeek(ctx context.Context, s *Seek, now time.Time) error
	// DeleteSeek removes the seek of userID made on instance and reports
	// whether there was one: false when it was paired (or replaced)
	// meanwhile.
	DeleteSeek(ctx context.Context, userID int64, instance string) (bool, error)
	// KeepSeeks marks the seeks of users made on instance alive at now
	// and returns the users whose seeks are there: a seek missing was
	// paired or replaced elsewhere. Seeks of the instance not named
	// (their sockets closed, and their deletion failed) are left to
	// expire.
	KeepSeeks(ctx context.Context, instance string, users []int64, now time.Time) ([]int64, error)
	// PairSeeks takes the seeks that no other PairSeeks holds, deletes
	// those not kept alive since alive, and calls pair with the others,
	// oldest first; pair returns pairs of indexes into its argument. The
	// seeks paired are deleted and returned, in the same transaction, so
	// that no seek is paired twice.
	PairSeeks(ctx context.Context, alive time.Time, pair func([]Seek) [][2]int) ([][2]Seek, error)
}
