package tengen

import (
	"context"
	"math"
	"time"

	"tengen/goban"
)

// Problem is a life-and-death or tesuji problem: a position, what the side
// to play must achieve, and a solution tree of right and wrong lines.
// Problems are read-only data; package problems loads them from SGF files.
type Problem struct {
	// ID is the problem's name in URLs, e.g. "p012".
	ID string `json:"id"`
	// Level is the strength the problem is meant for, as a kyu grade
	// ("30k" for first steps to "10k").
	Level string `json:"level"`
	// Kyu is Level's number (30 for "30k"); smaller is harder.
	Kyu int `json:"-"`
	// Goal is "kill", "live", "capture" or "save".
	Goal string `json:"goal"`
	// Ko reports that a ko is the best result, and counts as solved.
	Ko bool `json:"ko,omitempty"`
	// ToPlay is the side the user plays.
	ToPlay goban.Color `json:"-"`
	// Size is the board size; Black and White the stones set up.
	Size         int           `json:"-"`
	Black, White []goban.Point `json:"-"`
	// Target is a stone of the group to kill, live, capture or save.
	Target goban.Point `json:"-"`
	// Region holds the empty points where the problem's moves are played.
	Region []goban.Point `json:"-"`
	// Text is the problem statement by language ("en", "de").
	Text map[string]string `json:"-"`
	// Tree holds the user's possible first moves.
	Tree []*ProblemNode `json:"-"`
	// SGF is the problem's record with its solution tree.
	SGF []byte `json:"-"`
}

// ProblemNode is a move in a problem's solution tree. The user's moves carry
// Correct or Wrong; after a user's move the opponent's answer is the first
// child, and a line ends where a node has no children.
type ProblemNode struct {
	Color   goban.Color
	Point   goban.Point
	Pass    bool
	Correct bool
	Wrong   bool
	// Text explains the move by language ("en", "de"); it may be empty.
	Text     map[string]string
	Children []*ProblemNode
}

// ProblemService gives the problems.
type ProblemService interface {
	// Problems returns every problem, easiest first.
	Problems() []*Problem
	// Problem returns one problem or an error with code ENOTFOUND.
	Problem(id string) (*Problem, error)
}

// ProblemRecord is a user's record on one problem.
type ProblemRecord struct {
	ProblemID string
	// Solved reports whether the user has ever solved the problem.
	Solved bool
	// Attempts counts the finished attempts, solved or not.
	Attempts int
	// SolvedAt is the first time the problem was solved.
	SolvedAt time.Time
}

// ProblemProgress is a user's problem rating and records.
type ProblemProgress struct {
	// Rating is the user's problem rating (see ProblemRatingUpdate).
	Rating float64
	// Rated counts the problems that changed the rating.
	Rated   int
	Records []ProblemRecord
}

// ProblemProgressService stores which problems users solved and their
// problem rating.
type ProblemProgressService interface {
	// RecordProblemAttempt stores a finished attempt. Only the first
	// attempt at a problem changes the rating, by ProblemRatingUpdate
	// against difficulty; it returns the progress afterwards.
	RecordProblemAttempt(ctx context.Context, userID int64, problemID string, solved bool, difficulty float64, at time.Time) (*ProblemProgress, error)
	// ProblemProgress returns a user's progress; a user without attempts
	// has the initial rating.
	ProblemProgress(ctx context.Context, userID int64) (*ProblemProgress, error)
	// MarkProblemsSolved records problems as solved without a rated
	// attempt: the problems a visitor solved in the browser, carried into
	// the account at login or sign-up. A problem without a record gets one
	// solved attempt at the given time; one with a record becomes solved
	// and keeps its attempts and its first solution time, so marking twice
	// changes nothing. The rating does not change (the browser's record
	// holds no moves that the server could check). An empty problem id is
	// EINVALID; an unknown user ENOTFOUND.
	MarkProblemsSolved(ctx context.Context, userID int64, problemIDs []string, at time.Time) (*ProblemProgress, error)
}

// InitialProblemRating is the problem rating before the first attempt: the
// difficulty of a 20 kyu problem.
const InitialProblemRating = 1000

// ProblemDifficulty is the rating of a problem of the given kyu grade on
// the problem rating's scale: 30 kyu is 500, and each grade adds 50, so a
// 10 kyu problem is 1500.
func ProblemDifficulty(kyu int) float64 { return 500 + 50*float64(30-kyu) }

// ProblemRatingUpdate returns the rating after a first attempt at a problem
// of the given difficulty: an Elo step with K 32, as if the problem were a
// player who wins when the user fails. Elo is enough here: problems do not
// change strength, and only first attempts count, so the rating cannot be
// farmed by repeating a solved problem.
func ProblemRatingUpdate(rating, difficulty float64, solved bool) float64 {
	expected := 1 / (1 + math.Pow(10, (difficulty-rating)/400))
	score := 0.0
	if solved {
		score = 1
	}
	return rating + 32*(score-expected)
}
