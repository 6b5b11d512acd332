package sqlrow

import (
	"encoding/json"
	"sync"
	"unsafe"

	"tengen"
)

// JSONText is the stored form of a JSON column's value v. A value that
// writes its JSON itself (the clock's types, which package clock's tests
// hold to what encoding/json makes of them) is asked directly: through
// json.Marshal its output would be scanned and copied again, and a clock is
// stored with every move. The text shares the bytes a marshaler returned,
// which nothing else holds, instead of copying them; a value that appends
// its JSON (jsonAppender) is written into a kept buffer and copied.
func JSONText(v any) (string, error) {
	if a, ok := v.(jsonAppender); ok {
		// A game's clock, stored with every move: written into a buffer
		// that is kept, and copied at its size (about 350 bytes), not
		// into a buffer of its own large enough for any clock (512).
		p := scratch.Get().(*[]byte)
		defer scratch.Put(p)
		b, err := a.AppendJSON((*p)[:0])
		*p = b
		if err != nil || len(b) == 0 {
			return "", err
		}
		return string(b), nil
	}
	var b []byte
	var err error
	if m, ok := v.(json.Marshaler); ok {
		b, err = m.MarshalJSON()
	} else {
		b, err = json.Marshal(v)
	}
	if err != nil || len(b) == 0 {
		return "", err
	}
	return unsafe.String(&b[0], len(b)), nil
}

// jsonAppender is a value that appends its JSON to a buffer, as
// clock.GameClock does.
type jsonAppender interface {
	AppendJSON(b []byte) ([]byte, error)
}

// scratch holds the buffers JSONText writes a jsonAppender's JSON into.
var scratch = sync.Pool{New: func() any { return new([]byte) }}

// PlayRecordLists returns the stored forms of rec's dead stones and
// resumptions, "[]" for an empty list: both are empty for every move of a
// game being played.
func PlayRecordLists(rec *tengen.PlayRecord) (dead, resumptions string, err error) {
	dead, resumptions = "[]", "[]"
	if len(rec.Dead) > 0 {
		if dead, err = JSONText(rec.Dead); err != nil {
			return "", "", err
		}
	}
	if len(rec.Resumptions) > 0 {
		if resumptions, err = JSONText(rec.Resumptions); err != nil {
			return "", "", err
		}
	}
	return dead, resumptions, nil
}
