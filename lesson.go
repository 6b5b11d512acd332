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
	// SaveLessonProgress records that the user has done steps of the
	// lesson. Progress never goes back: a smaller number than the stored
	// one changes nothing. An empty or too long lesson id or a step count
	// out of range is EINVALID; an unknown user ENOTFOUND.
	SaveLessonProgress(ctx context.Context, userID int64, lesson string, steps int) error
}
