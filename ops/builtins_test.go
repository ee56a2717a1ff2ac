package ops

import (
	"reflect"
	"slices"
	"testing"
)

// Each field of Builtin holds the op of its name, and the fields are the
// ops BuiltinOps lists, each once.
func TestBuiltinFields(t *testing.T) {
	v := reflect.ValueOf(Builtin)
	var fields []*Op
	for i := range v.NumField() {
		o, name := v.Field(i).Interface().(*Op), v.Type().Field(i).Name
		switch {
		case o == nil:
			t.Errorf("Builtin.%s is nil", name)
		case o.Name() != name:
			t.Errorf("Builtin.%s holds the op %s", name, o.Name())
		case LookupOp(name) != o:
			t.Errorf("Builtin.%s is not the op LookupOp(%q) finds", name, name)
		default:
			fields = append(fields, o)
		}
	}
	all := BuiltinOps()
	for _, o := range all {
		if !slices.Contains(fields, o) {
			t.Errorf("BuiltinOps lists %s, which no field of Builtin holds", o.Name())
		}
	}
	if len(fields) != len(all) {
		t.Errorf("Builtin has %d ops, BuiltinOps %d", len(fields), len(all))
	}
}
