package engine

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestQuoteCutsOutsideInput(t *testing.T) {
	assert.Equal(t, `"Jules Ducatel"`, Quote("Jules Ducatel"))
	assert.Equal(t, `"a\nb\x00"`, Quote("a\nb\x00"), "control characters are escaped: no forged log lines")
	assert.Equal(t, `"\xff"`, Quote("\xff"), "invalid UTF-8 is escaped")
	long := strings.Repeat("é", MaxQuoted)
	assert.Equal(t, `"`+long+`"`, Quote(long), "MaxQuoted characters are kept whole")
	assert.Equal(t, `"`+long+`"… (65 characters)`, Quote(long+"x"))
	huge := Quote(strings.Repeat("\x01", 100000))
	assert.Less(t, len(huge), 500, "even escaped, a quote stays short")
	assert.True(t, strings.HasSuffix(huge, "… (100000 characters)"))
	assert.True(t, utf8.ValidString(Quote("\xffé"+strings.Repeat("x", 100))))
}

// A deck whose card name has 100,000 characters is refused with an error
// that quotes a few dozen of them, not 100 KB (issue 27).
func TestDeckErrorsQuoteAShortPrefix(t *testing.T) {
	huge := strings.Repeat("n", 100000)
	for name, mutate := range map[string]func(d *deckFile){
		"card name":     func(d *deckFile) { d.Cards[0].Name = huge },
		"side":          func(d *deckFile) { d.Cards[0].Side = huge },
		"space":         func(d *deckFile) { d.Cards[45].Space = huge },
		"status":        func(d *deckFile) { d.Cards[0].Status = huge },
		"op":            func(d *deckFile) { d.Cards[4].Effect.Op = huge },
		"effect spaces": func(d *deckFile) { d.Cards[6].Effect.In.Spaces[0] = huge },
		"sphere":        func(d *deckFile) { d.Cards[6].Effect.In.Sphere = huge },
		"adjacent":      func(d *deckFile) { d.Cards[6].Effect.In.AdjacentTo = huge },
	} {
		t.Run(name, func(t *testing.T) {
			d := defaultDeckFile(t)
			mutate(&d)
			_, err := parseFile(t, d)
			require.Error(t, err)
			assert.Less(t, len(err.Error()), 600, err.Error()[:min(len(err.Error()), 600)])
			assert.Contains(t, err.Error(), "(100000 characters)")
		})
	}
	// An unknown field: encoding/json repeats its name; the error is cut
	// and still says what it is.
	_, err := ParseDeck([]byte(`{"cards": [], "` + huge + `": 1}`))
	require.Error(t, err)
	assert.Less(t, len(err.Error()), 600)
	assert.Contains(t, err.Error(), "unknown field")
	// ShortError keeps the error it cuts.
	long := &json.UnmarshalTypeError{Value: huge, Field: "cards", Type: reflect.TypeFor[int]()}
	cut := ShortError(long)
	assert.Less(t, len(cut.Error()), 600)
	var typeErr *json.UnmarshalTypeError
	assert.True(t, errors.As(cut, &typeErr), "still unwraps to encoding/json's error")
	short := errors.New("short")
	assert.Equal(t, short, ShortError(short), "a short error is left as it is")
	// Other parsers of outside words.
	for _, err := range []error{
		func() error { _, err := ParseSide(huge); return err }(),
		func() error { _, err := ParseSpace(huge); return err }(),
		func() error { _, err := ParseDimension(huge); return err }(),
		func() error { _, err := ParseVariant(huge); return err }(),
		func() error { _, err := LoadDeckFile("/nonexistent/" + huge); return err }(),
	} {
		require.Error(t, err)
		assert.Less(t, len(err.Error()), 600)
	}
}
