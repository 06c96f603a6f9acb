package engine

import (
	"strconv"
	"unicode/utf8"
)

// Outside input in messages. Whatever comes from outside the program (a
// deck file's fields and its name, a command's options, a button's
// custom_id, a file name, a command-line argument) is repeated in an error
// or a reply only through Quote: quoted, its control characters and
// invalid UTF-8 escaped, and cut to its first MaxQuoted characters. A card
// name of 100,000 characters must not make a 100 KB log line or a reply
// Discord refuses.

// MaxQuoted is how many characters of an outside text Quote repeats: a
// few dozen, enough for any valid card name (MaxCardNameRunes) or option.
const MaxQuoted = 64

// maxErrorText is how much of a library's error message ShortError keeps
// (encoding/json, for one, repeats the unknown field it choked on).
const maxErrorText = 200

// Quote returns s in Go quotes, cut to its first MaxQuoted characters:
// "Jules Ducatel", or "nnnn…nnnn"… (100000 characters) when cut.
func Quote(s string) string {
	n := utf8.RuneCountInString(s)
	if n <= MaxQuoted {
		return strconv.Quote(s)
	}
	return strconv.Quote(prefix(s, MaxQuoted)) + "… (" + strconv.Itoa(n) + " characters)"
}

// prefix is s's first n characters (an invalid byte counts as one).
func prefix(s string, n int) string {
	i := 0
	for k := 0; k < n && i < len(s); k++ {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return s[:i]
}

// ShortError is err with its message cut to a couple of hundred
// characters; errors.Is and errors.As still see err. For errors of code
// that is not ours and repeats its input whole.
func ShortError(err error) error {
	if err == nil || utf8.RuneCountInString(err.Error()) <= maxErrorText {
		return err
	}
	return shortError{err}
}

type shortError struct{ err error }

func (e shortError) Error() string {
	s := e.err.Error()
	return prefix(s, maxErrorText) + "… (" + strconv.Itoa(utf8.RuneCountInString(s)) + " characters)"
}

func (e shortError) Unwrap() error { return e.err }
