package postgres_test

import (
	"errors"
	"testing"

	"tengen/internal/rating"

	"tengen/postgres"
	"tengen/postgres/pgtest"
	"tengen/storagetest"
)

// open opens the database at url, after setup (if any) has prepared db,
// with a service of each kind on it.
func open(t testing.TB, url string, setup ...func(db *postgres.DB)) (*postgres.DB, storagetest.Services) {
	t.Helper()
	db := postgres.NewDB(url)
	for _, f := range setup {
		f(db)
	}
	if err := db.Open(); err != nil {
		t.Fatal(err)
	}
	return db, storagetest.Services{
		Users:      postgres.NewUserService(db),
		Sessions:   postgres.NewSessionService(db),
		Challenges: postgres.NewChallengeService(db),
		Games:      postgres.NewGameService(db),
		Ratings:    postgres.NewRatingService(db),
		Problems:   postgres.NewProblemService(db),
		Lessons:    postgres.NewLessonService(db),
		Reviews:    postgres.NewReviewService(db),
		Chat:       postgres.NewChatService(db),
		BotQueue:   postgres.NewBotQueue(db),
	}
}

func TestConformance(t *testing.T) {
	storagetest.Run(t, func(t *testing.T) *storagetest.Backend {
		url := pgtest.URL(t)
		db, s := open(t, url)
		t.Cleanup(func() { db.Close() })
		return &storagetest.Backend{
			Services: s,
			Reopen: func(t *testing.T) storagetest.Services {
				if err := db.Close(); err != nil {
					t.Fatal(err)
				}
				var s storagetest.Services
				db, s = open(t, url)
				return s
			},
			FailRatings: func(fail bool) {
				games := s.Games.(*postgres.GameService)
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
