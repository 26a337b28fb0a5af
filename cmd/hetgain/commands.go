package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/hetgain/hetgain/aggregators"
	"github.com/hetgain/hetgain/gain"
	"github.com/hetgain/hetgain/reproduce"
)

// Exit codes.
const (
	exitOK          = 0
	exitError       = 1   // the command failed
	exitUsage       = 2   // bad command line
	exitInterrupted = 130 // stopped by SIGINT or SIGTERM (128 + SIGINT)
)

// command is a sub-command: its help and how to run it. To add one, write
// a file with its command value and list it in commandTable.
type command struct {
	name     string
	summary  string // one line, for the list of commands
	synopsis string // after "hetgain name", e.g. "[flags]"
	about    string // paragraphs of the complete help
	examples []example
	// setup defines the command's flags on fs and returns the function
	// that runs the command once fs has parsed the arguments.
	setup func(fs *flag.FlagSet) func(a *app, fs *flag.FlagSet) error
}

// example is a command line with what it does.
type example struct{ line, note string }

// commandTable lists the sub-commands in the order of the help; hetgps
// and hetgps-compare add themselves before help in their own files
// (registerBeforeHelp).
var commandTable []*command

func init() {
	commandTable = []*command{gainsCommand, sweepCommand, predictCommand, trainCommand, reproduceCommand, inspectCommand, helpCommand}
}

// registerBeforeHelp adds c to the command table just before help, for
// commands defined in files whose init functions run after this one's.
func registerBeforeHelp(c *command) {
	for k, h := range commandTable {
		if h == helpCommand {
			commandTable = append(commandTable[:k], append([]*command{c}, commandTable[k:]...)...)
			return
		}
	}
	commandTable = append(commandTable, c)
}

func lookup(name string) *command {
	for _, c := range commandTable {
		if c.name == name {
			return c
		}
	}
	return nil
}

// app is one invocation of hetgain: where it writes, what stops it, and
// the hooks that tests replace.
type app struct {
	ctx    context.Context // cancelled by SIGINT/SIGTERM
	stdout io.Writer
	stderr io.Writer
	// solve computes one cell of a sweep; nil means gain.Numerical.
	solve gain.SolveFunc
	// experiment returns the experiment of a name for reproduce; nil
	// means reproduce.Lookup.
	experiment func(name string) (reproduce.Experiment, error)
	// now is the clock of the progress line.
	now func() time.Time
	// terminal reports whether stderr is a terminal (progress in place).
	terminal bool
	// args are the arguments of the running command after its name, for
	// the command line that resumes it.
	args []string
}

func newApp(ctx context.Context, stdout, stderr io.Writer) *app {
	return &app{ctx: ctx, stdout: stdout, stderr: &lockedWriter{w: stderr}, now: time.Now, terminal: isTerminal(stderr)}
}

// run runs hetgain with the command-line arguments args (without the
// program name) and returns the exit code. It is main without the process:
// tests call it in-process.
func run(args []string, stdout, stderr io.Writer) int {
	return newApp(context.Background(), stdout, stderr).run(args)
}

func (a *app) run(args []string) int {
	if len(args) == 0 {
		a.printMainHelp(a.stderr)
		return exitUsage
	}
	switch name := args[0]; name {
	case "-h", "-help", "--help", "help":
		if name == "help" && len(args) > 1 {
			return a.runCommand(helpCommand, args[1:])
		}
		a.printMainHelp(a.stdout)
		return exitOK
	default:
		c := lookup(name)
		if c == nil {
			if strings.HasPrefix(name, "-") {
				fmt.Fprintf(a.stderr, "hetgain: flag %s before the command: flags follow the command, as in 'hetgain gains -n 2'\n", name)
			} else {
				fmt.Fprintf(a.stderr, "hetgain: unknown command %q (commands: %s)\n", name, commandNames())
			}
			fmt.Fprintln(a.stderr, "Run 'hetgain -h' for usage.")
			return exitUsage
		}
		return a.runCommand(c, args[1:])
	}
}

// usageError is an error in the command line: exit code 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...interface{}) error {
	return &usageError{fmt.Sprintf(format, args...)}
}

// errInterrupted reports a command stopped by a signal; the command has
// already said what it kept.
var errInterrupted = errors.New("interrupted")

func (a *app) runCommand(c *command, args []string) int {
	a.args = args
	fs := newFlagSet(c)
	runner := c.setup(fs)
	explainNumberFlags(fs)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			a.printCommandHelp(a.stdout, c)
			return exitOK
		}
		return a.fail(c, &usageError{err.Error()})
	}
	err := runner(a, fs)
	if errors.Is(err, flag.ErrHelp) { // -h after an operand (parseAfterOperand)
		a.printCommandHelp(a.stdout, c)
		return exitOK
	}
	return a.fail(c, err)
}

// parseAfterOperand parses the flags that follow a command's operand, as
// in "reproduce matrix2 -seeds 9": it returns flag.ErrHelp for -h, which
// runCommand answers with the command's help, and a usage error for a bad
// flag.
func parseAfterOperand(fs *flag.FlagSet, args []string) error {
	err := fs.Parse(args)
	if err == nil || errors.Is(err, flag.ErrHelp) {
		return err
	}
	return usagef("%v", err)
}

// operands returns the operands of args, a command line (after the
// command's name) that fs has parsed up to its first operand, parsing the
// flags among and after them with parseAfterOperand: "verdict DIR
// -threshold 0.5" reads as "verdict -threshold 0.5 DIR". Every command
// with operands takes its flags so. "--" ends the flags: every argument
// after it is an operand, even one starting with "-". It returns
// flag.ErrHelp for -h and a usage error for a bad flag, as
// parseAfterOperand.
func operands(fs *flag.FlagSet, args []string) ([]string, error) {
	var ops []string
	for {
		left := fs.Args()
		if endsFlags(fs, args[:len(args)-len(left)]) {
			return append(ops, left...), nil
		}
		if len(left) == 0 {
			return ops, nil
		}
		ops, args = append(ops, left[0]), left[1:]
		if err := parseAfterOperand(fs, args); err != nil {
			return nil, err
		}
	}
}

// endsFlags reports whether consumed, the arguments a parse by fs took as
// flags, ends with the "--" that ends the flags (and not with "--" as the
// value of a flag, as in -cell --).
func endsFlags(fs *flag.FlagSet, consumed []string) bool {
	for i := 0; i < len(consumed); i++ {
		arg := consumed[i]
		if arg == "--" {
			return true
		}
		if !strings.Contains(arg, "=") && !isBoolFlag(fs, arg) {
			i++ // the flag's value
		}
	}
	return false
}

// isBoolFlag reports whether arg, a flag fs has parsed, is a boolean
// flag, which takes no separate value.
func isBoolFlag(fs *flag.FlagSet, arg string) bool {
	f := fs.Lookup(strings.TrimLeft(arg, "-"))
	if f == nil {
		return false
	}
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// fail prints err, if any, and returns the exit code for it.
func (a *app) fail(c *command, err error) int {
	var ue *usageError
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, errInterrupted):
		return exitInterrupted
	case errors.As(err, &ue):
		fmt.Fprintf(a.stderr, "hetgain %s: %s\nRun 'hetgain help %s' for usage.\n", c.name, ue.msg, c.name)
		return exitUsage
	}
	fmt.Fprintf(a.stderr, "hetgain %s: %v\n", c.name, err)
	return exitError
}

func newFlagSet(c *command) *flag.FlagSet {
	fs := flag.NewFlagSet("hetgain "+c.name, flag.ContinueOnError)
	fs.SetOutput(io.Discard) // runCommand reports errors and prints help
	fs.Usage = func() {}
	return fs
}

// noArgs returns a usage error if fs has arguments left after the flags.
func noArgs(fs *flag.FlagSet) error {
	if fs.NArg() > 0 {
		return unexpectedArg(fs.Arg(0))
	}
	return nil
}

// unexpectedArg returns the usage error for arg, an argument a command
// does not take. One that starts with "-" but was not read as a flag
// came after the "--" that ends the flags.
func unexpectedArg(arg string) error {
	if strings.HasPrefix(arg, "-") && arg != "-" {
		return usagef("unexpected argument %q after \"--\", which ends the flags: give flags before \"--\"", arg)
	}
	return usagef("unexpected argument %q (flags start with -)", arg)
}

func commandNames() string {
	names := make([]string, len(commandTable))
	for i, c := range commandTable {
		names[i] = c.name
	}
	return strings.Join(names, ", ")
}

func (a *app) printMainHelp(w io.Writer) {
	var b strings.Builder
	b.WriteString(`hetgain computes heterogeneity gains ΔR = R_het − R_hom of team rewards
R(A) = U(T(a_1), ..., T(a_M)): N agents split a unit budget of effort over
M tasks, T aggregates each task's efforts and U the task scores (the paper
"When is diversity rewarded?").

Usage:
  hetgain <command> [flags]
  hetgain help <command>

Commands:
`)
	width := 0
	for _, c := range commandTable {
		width = max(width, len(c.name))
	}
	for _, c := range commandTable {
		fmt.Fprintf(&b, "  %-*s  %s\n", width, c.name, c.summary)
	}
	b.WriteString("\nExamples:\n")
	for _, c := range commandTable {
		if len(c.examples) > 0 && c.name != "help" {
			writeExample(&b, c.examples[0])
		}
	}
	fmt.Fprintf(&b, `
Run 'hetgain help <command>' or 'hetgain <command> -h' for a command's
flags and more examples. Flags may come before or after a command's
operands (its directories, an experiment's name); "--" ends the flags.

Operators: %s.
Exit status: 0 done; 1 error (an input missing, unreadable or malformed,
an output not written, a failure); 2 bad command line (a flag or operand
wrong, or asking for what the inputs do not have); 130 interrupted.
`, strings.Join(aggregators.Families, ", "))
	io.WriteString(w, b.String())
}

func (a *app) printCommandHelp(w io.Writer, c *command) {
	var b strings.Builder
	fmt.Fprintf(&b, "Usage: hetgain %s %s\n\n%s\n", c.name, c.synopsis, strings.TrimSpace(c.about))
	fs := newFlagSet(c)
	c.setup(fs)
	hasFlags := false
	fs.VisitAll(func(*flag.Flag) { hasFlags = true })
	if hasFlags {
		b.WriteString("\nFlags:\n")
		fs.SetOutput(&b)
		fs.PrintDefaults()
	}
	if len(c.examples) > 0 {
		b.WriteString("\nExamples:\n")
		for _, e := range c.examples {
			writeExample(&b, e)
		}
	}
	io.WriteString(w, b.String())
}

func writeExample(b *strings.Builder, e example) {
	fmt.Fprintf(b, "  %s\n", e.line)
	if e.note != "" {
		fmt.Fprintf(b, "      %s\n", e.note)
	}
}

var helpCommand = &command{
	name:     "help",
	summary:  "show the help of a command",
	synopsis: "[command]",
	about:    "Help prints the complete help of a command: its flags and examples.",
	examples: []example{{"hetgain help sweep", ""}},
	setup: func(fs *flag.FlagSet) func(a *app, fs *flag.FlagSet) error {
		return func(a *app, fs *flag.FlagSet) error {
			switch fs.NArg() {
			case 0:
				a.printMainHelp(a.stdout)
				return nil
			case 1:
				c := lookup(fs.Arg(0))
				if c == nil {
					return usagef("unknown command %q (commands: %s)", fs.Arg(0), commandNames())
				}
				a.printCommandHelp(a.stdout, c)
				return nil
			}
			return usagef("help takes one command name, got %d arguments", fs.NArg())
		}
	},
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
