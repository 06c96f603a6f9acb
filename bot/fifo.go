package bot

import "slices"

// fifoMap is a map that keeps at most max keys, dropping the oldest put
// first (the state cache and the DM channels: states.go, dmchannels.go).
// It is not safe for concurrent use: its owner locks.
type fifoMap[K comparable, V any] struct {
	max   int
	m     map[K]V
	order []K // oldest first
}

func (f *fifoMap[K, V]) get(k K) (V, bool) {
	v, ok := f.m[k]
	return v, ok
}

func (f *fifoMap[K, V]) put(k K, v V) {
	if f.m == nil {
		f.m = map[K]V{}
	}
	if _, ok := f.m[k]; !ok {
		f.order = append(f.order, k)
	}
	f.m[k] = v
	for len(f.order) > f.max {
		delete(f.m, f.order[0])
		f.order = f.order[1:]
	}
}

func (f *fifoMap[K, V]) delete(k K) {
	if _, ok := f.m[k]; !ok {
		return
	}
	delete(f.m, k)
	if i := slices.Index(f.order, k); i >= 0 {
		f.order = slices.Delete(f.order, i, i+1)
	}
}

func (f *fifoMap[K, V]) len() int { return len(f.m) }
