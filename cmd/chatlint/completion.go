package main

import "github.com/spf13/cobra"

// addCompletion adds cobra's shell completion command now rather than at
// execution, so it gets examples like every other command.
func addCompletion(root *cobra.Command) {
	root.InitDefaultCompletionCmd()
	for _, c := range root.Commands() {
		if c.Name() == "completion" {
			c.Example = `  source <(chatlint completion bash)                 # bash, this shell
  chatlint completion zsh > "${fpath[1]}/_chatlint"  # zsh
  chatlint completion fish > ~/.config/fish/completions/chatlint.fish`
			for _, sh := range c.Commands() {
				sh.Example = "  chatlint completion " + sh.Name() + " --help   # where to put the script"
			}
		}
	}
}
