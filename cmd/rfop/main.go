// Command rfop runs the Red Flag Over Paris Discord bot and its tools.
//
// Subcommands register themselves (one file each) with register; running
// rfop with no subcommand starts the bot.
package main

import (
	"fmt"
	"io"
	"os"
	"sort"
)

type command struct {
	name    string
	summary string // one line for --help
	run     func(args []string, stdin io.Reader, stdout, stderr io.Writer) int
}

var commands = map[string]*command{}

func register(c *command) { commands[c.name] = c }

func main() { os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	name := "bot"
	if len(args) > 0 {
		name, args = args[0], args[1:]
	}
	switch name {
	case "-h", "--help", "help":
		usage(stdout)
		return 0
	}
	c, ok := commands[name]
	if !ok {
		fmt.Fprintf(stderr, "rfop: unknown subcommand %q\n\n", name)
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
