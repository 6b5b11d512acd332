package sqlrow

import (
	"encoding/json"
	"sync"

	"tengen"
)

// JSONText is the stored form of a JSON column's value v. The clock's
// types, stored with every move, append their JSON (package clock's tests
// hold it to what encoding/json makes of them): it is written into a kept
// buffer and copied at its size, not through json.Marshal, which would
// scan and copy a marshaler's output again, nor into a buffer of its own
// large enough for any clock. Other values go through json.Marshal.
func JSONText(v any) (string, error) {
	var appendJSON func([]byte) ([]byte, error)
	switch a := v.(type) {
	case interface{ AppendJSON([]byte) ([]byte, error) }: // *clock.GameClock
		appendJSON = a.AppendJSON
	case interface{ AppendJSON([]byte) []byte }: // clock.State
		appendJSON = func(b []byte) ([]byte, error) { return a.AppendJSON(b), nil }
	default:
		b, err := json.Marshal(v)
		return string(b), err
	}
	p := scratch.Get().(*[]byte)
	defer scratch.Put(p)
	b, err := appendJSON((*p)[:0])
	if err != nil {
		return "", err
	}
	*p = b
	return string(b), nil
}

// scratch holds the buffers JSONText writes a clock's JSON into.
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
