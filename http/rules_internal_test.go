package http

import (
	"reflect"
	"slices"
	"testing"

	"tengen/goban"
)

// TestRulesTableCoversRuleset changes every field of goban.Ruleset in turn
// and checks that the /rules table shows the change, so that a new rule in
// goban cannot be left out of the page unnoticed.
func TestRulesTableCoversRuleset(t *testing.T) {
	cats, err := loadCatalogs()
	if err != nil {
		t.Fatal(err)
	}
	for _, base := range []string{"japanese", "chinese", "online"} {
		r := goban.MustRuleset(base)
		want := rulesRows(cats["en"], []goban.Ruleset{r})
		typ := reflect.TypeOf(r)
		for i := range typ.NumField() {
			f := typ.Field(i)
			// Name is the column; the bonus counts only under area
			// scoring, and KomiOther is not used with KomiBySmallerSide.
			if f.Name == "Name" || (f.Name == "HandicapBonus" && r.Scoring != goban.AreaScoring) ||
				(f.Name == "KomiOther" && r.KomiBySmallerSide) {
				continue
			}
			changed := r
			v := reflect.ValueOf(&changed).Elem().Field(i)
			switch v.Kind() {
			case reflect.Bool:
				v.SetBool(!v.Bool())
			case reflect.Uint8:
				v.SetUint(v.Uint() + 1)
			case reflect.Float64:
				v.SetFloat(v.Float() + 0.5)
			default:
				t.Fatalf("field %s of kind %v: teach this test to change it", f.Name, v.Kind())
			}
			got := rulesRows(cats["en"], []goban.Ruleset{changed})
			same := slices.EqualFunc(got, want, func(a, b rulesRow) bool { return slices.Equal(a.Cells, b.Cells) })
			if same {
				t.Errorf("%s: changing %s leaves the rules table as it is", base, f.Name)
			}
		}
	}
}
