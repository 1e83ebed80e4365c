//go:build !unix

package supervise

import "os/exec"

// shellCommand runs command with cmd /C; without process groups, only the
// shell itself is signalled.
func shellCommand(command string) *exec.Cmd { return exec.Command("cmd", "/C", command) }

// signalGroup kills the command; there is no gentler signal here.
func signalGroup(cmd *exec.Cmd, _ bool) { cmd.Process.Kill() }
