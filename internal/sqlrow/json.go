package sqlrow

import (
	"encoding/json"
	"unsafe"

	"tengen"
)

// JSONText is the stored form of a JSON column's value v. A value that
// writes its JSON itself (the clock's types, which package clock's tests
// hold to what encoding/json makes of them) is asked directly: through
// json.Marshal its output would be scanned and copied again, and a clock is
// stored with every move. The text shares the bytes the encoder returned,
// which nothing else holds, instead of copying them.
func JSONText(v any) (string, error) {
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
