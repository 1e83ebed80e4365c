package main

import (
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// plainBool is a boolean flag's value as --help shows it: a plain flag
// ("--verbose"), not "--verbose[=true|false]". It parses as before: the
// flag alone sets it (its NoOptDefVal is "true"), and --verbose=false
// still clears it. pflag writes the "[=true|false]" for values that say
// they are bool flags; this one does not say so.
type plainBool struct{ pflag.Value }

// plainBools makes every boolean flag of root and its commands, help and
// completion included, read as a plain flag in --help.
func plainBools(root *cobra.Command) {
	root.InitDefaultHelpCmd()
	root.InitDefaultVersionFlag()
	root.InitDefaultCompletionCmd()
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		c.InitDefaultHelpFlag()
		for _, fs := range []*pflag.FlagSet{c.LocalNonPersistentFlags(), c.PersistentFlags(), c.Flags()} {
			fs.VisitAll(func(f *pflag.Flag) {
				if _, done := f.Value.(plainBool); !done && f.Value.Type() == "bool" {
					f.Value = plainBool{f.Value}
				}
			})
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}

// helpWidth is the width the commands' long help is written to: what a
// terminal of 100 columns shows unwrapped.
const helpWidth = 94
