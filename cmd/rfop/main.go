// Command rfop runs the Red Flag Over Paris Discord bot and its tools.
//
// Subcommands register themselves (one file each) with register; running
// rfop with no subcommand starts the bot.
package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/rfop/rfop/engine"
)

type command struct {
	name    string
	summary string // one line for --help
	run     func(args []string, stdin io.Reader, stdout, stderr io.Writer) int
}

var commands = map[string]*command{}

func register(c *command) { commands[c.name] = c }

// self is how the user invoked rfop, for messages that tell them what to
// type next: "go run ./cmd/rfop" under go run, else the program's name.
var self = "rfop"

func main() {
	self = invokedAs(os.Args[0])
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// invokedAs names the command as the user typed it. go run builds the
// binary in a go-build temporary directory: the user typed go run.
func invokedAs(argv0 string) string {
	if strings.Contains(filepath.ToSlash(argv0), "/go-build") {
		return "go run ./cmd/rfop"
	}
	if base := filepath.Base(argv0); base != "" && base != "." && base != "/" {
		return base
	}
	return "rfop"
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	name := "bot"
	if len(args) > 0 {
		switch a := args[0]; {
		case a == "-h" || a == "--help" || a == "-help" || a == "help":
			usage(stdout)
			return 0
		case strings.HasPrefix(a, "-"):
			// Flags without a subcommand are the bot's, the default
			// subcommand: rfop -db /data/rfop.db.
		default:
			name, args = a, args[1:]
		}
	}
	c, ok := commands[name]
	if !ok {
		fmt.Fprintf(stderr, "rfop: unknown subcommand %s\n\n", engine.Quote(name))
		usage(stderr)
		return 2
	}
	return c.run(args, stdin, stdout, stderr)
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "rfop — Red Flag Over Paris on Discord")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Usage: rfop [subcommand] [flags]   (no subcommand: run the bot)")
	fmt.Fprintln(w)
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Run 'rfop SUBCOMMAND -h' for a subcommand's flags.")
}
