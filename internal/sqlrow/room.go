package sqlrow

import (
	"encoding/json"
	"fmt"

	"tengen"
)

// The stored forms of the game room's columns (issue 17): a user's board
// options and vacation account, and the comforts of a play record, each
// JSON in one column.

// JSON scans a JSON column into V; NULL or ” leave V as it is, so that
// the caller's default stands.
type JSON struct{ V any }

// Scan implements sql.Scanner.
func (j JSON) Scan(src any) error {
	var b []byte
	switch v := src.(type) {
	case nil:
		return nil
	case string:
		b = []byte(v)
	case []byte:
		b = v
	default:
		return fmt.Errorf("JSON column holds %T", src)
	}
	if len(b) == 0 {
		return nil
	}
	return json.Unmarshal(b, j.V)
}

// UserRoomColumns are the user's columns that UserRoomFields scans.
const UserRoomColumns = `board_settings, vacation`

// UserRoomFields returns the scan destinations of UserRoomColumns; a user
// who never saved settings gets tengen.DefaultUserSettings.
func UserRoomFields(u *tengen.User) []any {
	u.Settings = tengen.DefaultUserSettings
	return []any{JSON{&u.Settings}, JSON{&u.Vacation}}
}

// comforts is the stored form of a play record's correspondence comforts.
type comforts struct {
	Vacation    tengen.GameVacation      `json:"vacation"`
	Conditional *tengen.ConditionalMoves `json:"conditional,omitempty"`
}

// ComfortsJSON returns the comforts column of rec.
func ComfortsJSON(rec *tengen.PlayRecord) (string, error) {
	b, err := json.Marshal(comforts{rec.Vacation, rec.Conditional})
	return string(b), err
}

// ComfortsDest returns the scan destination of rec's comforts column.
func ComfortsDest(rec *tengen.PlayRecord) any { return comfortsScanner{rec} }

type comfortsScanner struct{ rec *tengen.PlayRecord }

func (c comfortsScanner) Scan(src any) error {
	var v comforts
	if err := (JSON{&v}).Scan(src); err != nil {
		return err
	}
	c.rec.Vacation, c.rec.Conditional = v.Vacation, v.Conditional
	return nil
}
