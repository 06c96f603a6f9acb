package engine

// chunks hands out exact-length pieces of larger allocations for the
// memory a game writes as it is played and never changes afterwards: the
// messages and arguments of its log lines and the choices of its prompts.
// A piece is cut to its length and capacity (an append to it copies), and
// memory is never handed out twice: a chunk is freed only when no line or
// prompt uses it. So a move costs a few allocations instead of one per
// line, argument list and prompt (each was a malloc and an object for the
// collector), and nothing a caller keeps changes afterwards.
type chunks[T any] struct{ buf []T }

// Chunk sizes grow from minChunk to maxChunk: a simulation clone that
// makes a few decisions takes little, a whole game a few chunks.
const (
	minChunk = 16
	maxChunk = 256
)

// copyOf returns a piece holding a copy of src (nil for nil, an empty
// list for an empty one).
func (c *chunks[T]) copyOf(src []T) []T {
	n := len(src)
	if n == 0 {
		if src == nil {
			return nil
		}
		return []T{}
	}
	if cap(c.buf)-len(c.buf) < n {
		size := min(max(2*cap(c.buf), minChunk), maxChunk)
		c.buf = make([]T, 0, max(size, n))
	}
	i := len(c.buf)
	c.buf = append(c.buf, src...)
	return c.buf[i : i+n : i+n]
}

// one returns a pointer to a copy of v in a chunk.
func (c *chunks[T]) one(v T) *T {
	if len(c.buf) == cap(c.buf) {
		c.buf = make([]T, 0, min(max(2*cap(c.buf), minChunk), maxChunk))
	}
	c.buf = append(c.buf, v)
	return &c.buf[len(c.buf)-1]
}
