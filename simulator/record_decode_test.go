package simulator

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"
)

// TestDecoderKnowsEveryField: a record with every field set decodes the
// quick way to what encoding/json makes of it, so a field added to the
// record of a type the decoder does not know fails here, not as a slow
// stream.
func TestDecoderKnowsEveryField(t *testing.T) {
	var rec recordJSON
	v := reflect.ValueOf(&rec).Elem()
	start := time.Date(2026, 1, 2, 3, 4, 5, 600, time.UTC)
	for i := range v.NumField() {
		f := v.Field(i)
		switch {
		case f.Type() == timeType:
			f.Set(reflect.ValueOf(start.Add(time.Duration(i) * time.Second)))
		case f.Kind() == reflect.Pointer && f.Type().Elem() == timeType:
			t := start.Add(time.Duration(i) * time.Hour).In(time.FixedZone("", 3600))
			f.Set(reflect.ValueOf(&t))
		case f.Kind() == reflect.String:
			f.SetString("text " + v.Type().Field(i).Name)
		case f.Kind() == reflect.Int:
			f.SetInt(int64(i + 1))
		case f.Kind() == reflect.Uint64:
			f.SetUint(1<<63 + uint64(i))
		case f.Kind() == reflect.Float64:
			f.SetFloat(float64(i) + 0.125)
		case f.Kind() == reflect.Bool:
			f.SetBool(true)
		case f.Type() == reflect.TypeFor[[]float64]():
			f.Set(reflect.ValueOf([]float64{0, 297, 1e-7, 259200.5}))
		case f.Type() == reflect.TypeFor[[][2]float64]():
			f.Set(reflect.ValueOf([][2]float64{{1, 2}, {3.5, -4}}))
		default:
			t.Fatalf("recordJSON.%s: a field of type %s the test (and so the decoder) does not know", v.Type().Field(i).Name, f.Type())
		}
	}
	line, err := json.Marshal(&rec)
	if err != nil {
		t.Fatal(err)
	}
	var got, want recordJSON
	if !NewRecordDecoder().fast(line, &got) {
		t.Fatalf("the decoder leaves a record of every field to encoding/json:\n%s", line)
	}
	if err := json.Unmarshal(line, &want); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s:\n got %+v\nwant %+v", line, got, want)
	}
}
