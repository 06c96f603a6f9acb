package bot

import "math/rand/v2"

func newRand(seed int64) *rand.Rand { return rand.New(rand.NewPCG(uint64(seed), 3)) }
