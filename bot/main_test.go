package bot_test

import (
	"flag"
	"os"
	"runtime"
	"strconv"
	"testing"
)

// TestMain lets more end-to-end tests run at once than go test's default
// of GOMAXPROCS: an E2E test spends most of its time waiting for its fake
// Discord, its database and its bot's goroutines (on two cores the
// package used a third of its CPU with two tests at a time). A -parallel
// given on the command line is kept.
func TestMain(m *testing.M) {
	flag.Parse()
	if !flagGiven("test.parallel") {
		if err := flag.Set("test.parallel", strconv.Itoa(e2eParallel())); err != nil {
			panic(err) // the testing package defines the flag
		}
	}
	os.Exit(m.Run())
}

// e2eParallel is four tests per core, at least eight: enough to keep two
// cores busy while most tests wait, not so many that a test's own work
// queues behind dozens of others.
func e2eParallel() int {
	return max(8, 4*runtime.GOMAXPROCS(0))
}

func flagGiven(name string) bool {
	given := false
	flag.Visit(func(f *flag.Flag) {
		if f.Name == name {
			given = true
		}
	})
	return given
}
