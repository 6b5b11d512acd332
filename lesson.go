package tengen

import "context"

// Limits of lesson progress, which storage checks.
const (
	// MaxLessonIDLen is the longest lesson id.
	MaxLessonIDLen = 40
	// MaxLessonSteps is the most steps a lesson may have.
	MaxLessonSteps = 100
)

// LessonService stores how far each user got in the lessons at /learn.
type LessonService interface {
	// FindLessonProgress returns the number of steps the user has done per
	// lesson id; lessons not begun are absent.
	FindLessonProgress(ctx context.Context, userID int64) (map[string]int, error)
	// SaveLessonProgress records the steps the user has done, per lesson
	// id, in one transaction: all or nothing. Progress never goes back: a
	// smaller number than the stored one changes nothing. An empty or too
	// long lesson id or a step count out of range is EINVALID (see
	// ValidateLessonProgress); an unknown user ENOTFOUND.
	SaveLessonProgress(ctx context.Context, userID int64, steps map[string]int) error
}

// ValidateLessonProgress checks lesson ids and step counts as storage
// stores them.
func ValidateLessonProgress(steps map[string]int) error {
	for lesson, n := range steps {
		if lesson == "" || len(lesson) > MaxLessonIDLen {
			return Errorf(EINVALID, "A lesson id has 1 to %d characters.", MaxLessonIDLen)
		}
		if n < 0 || n > MaxLessonSteps {
			return Errorf(EINVALID, "A lesson has at most %d steps.", MaxLessonSteps)
		}
	}
	return nil
}
