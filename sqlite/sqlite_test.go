package sqlite_test

import (
	"errors"
	"path/filepath"
	"testing"

	"tengen/internal/memqueue"
	"tengen/internal/rating"
	"tengen/sqlite"
	"tengen/storagetest"
)

func open(t *testing.T, path string) (*sqlite.DB, storagetest.Services) {
	t.Helper()
	db := sqlite.NewDB(path)
	if err := db.Open(); err != nil {
		t.Fatal(err)
	}
	return db, storagetest.Services{
		Users:      sqlite.NewUserService(db),
		Sessions:   sqlite.NewSessionService(db),
		Challenges: sqlite.NewChallengeService(db),
		Games:      sqlite.NewGameService(db),
		Ratings:    sqlite.NewRatingService(db),
		Problems:   sqlite.NewProblemService(db),
		Lessons:    sqlite.NewLessonService(db),
		Reviews:    sqlite.NewReviewService(db),
		Chat:       sqlite.NewChatService(db),
		BotQueue:   memqueue.New(0),
	}
}

// openBench opens a database with the given synchronous setting.
func openBench(b *testing.B, path, sync string) (*sqlite.DB, storagetest.Services) {
	db := sqlite.NewDB(path)
	db.Synchronous = sync
	if err := db.Open(); err != nil {
		b.Fatal(err)
	}
	return db, storagetest.Services{
		Users:      sqlite.NewUserService(db),
		Sessions:   sqlite.NewSessionService(db),
		Challenges: sqlite.NewChallengeService(db),
		Games:      sqlite.NewGameService(db),
		Ratings:    sqlite.NewRatingService(db),
		Problems:   sqlite.NewProblemService(db),
		Lessons:    sqlite.NewLessonService(db),
		Reviews:    sqlite.NewReviewService(db),
		Chat:       sqlite.NewChatService(db),
	}
}

func TestConformance(t *testing.T) {
	storagetest.Run(t, func(t *testing.T) *storagetest.Backend {
		path := filepath.Join(t.TempDir(), "tengen.db")
		db, s := open(t, path)
		t.Cleanup(func() { db.Close() })
		return &storagetest.Backend{
			Services: s,
			Reopen: func(t *testing.T) storagetest.Services {
				if err := db.Close(); err != nil {
					t.Fatal(err)
				}
				var s storagetest.Services
				db, s = open(t, path)
				return s
			},
			FailRatings: func(fail bool) {
				games := s.Games.(*sqlite.GameService)
				games.Rate = nil
				if fail {
					games.Rate = func(player, _ rating.Rating, _ float64) (rating.Rating, error) {
						return player, errors.New("rating store is broken")
					}
				}
			},
		}
	})
}
