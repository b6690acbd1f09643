package commands

import _ "embed"

// expectMark ends the verdict lines of expectScript: what follows it is
// the pseudo-terminal's output.
const expectMark = "\n__TENDER_PTY_5f3a__\n"

// expectScript runs the expect module's command in a pseudo-terminal on
// the host, as pexpect runs it for Ansible: util-linux's script(1) makes
// the terminal (24 rows, 80 columns, echo off unless $echo), the command
// runs as the terminal's session leader, and everything it writes to the
// terminal goes to stdout. The module reads that while it runs and
// answers on stdin, one line per write: "d" and the bytes in printf %b's
// octal escapes, written to the terminal as typed input, or "k" to end
// the command (a timeout, or no answer left) as pexpect's close does:
// SIGHUP, SIGCONT, SIGINT, then SIGKILL to its process group. Answers
// never reach an argv or a file: printf is the shell's builtin, writing
// to a FIFO in a private directory that script(1) reads.
//
// Inputs (set by the module): chdir, creates, removes (words expanded
// here, as Ansible's path parameters are; unset when not given), echo,
// _t_cmd (the program, the first word of pexpect's split of the command
// line) and _t_qargs (the other words, each quoted, each after a space).
//
// Before the mark it prints key=value lines and blobs: chdir=ERRNO and
// the blob path (the directory cannot be entered: Python's os.chdir
// raises), skip=creates or skip=removes and the blob path, notfound=1
// (pexpect's which() finds no executable file), noscript=1 (no
// util-linux script), then run=1 and the mark. The exit status is then
// the command's (128+N for a signal N).
//
//go:embed expect.sh
var expectScript string
