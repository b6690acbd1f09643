package packages

import _ "embed"

// aptRepoReadScript prints what apt_repository works on: the sources
// list file (sl=) and parts directory (sp=) as apt-config names them, the
// distribution's codename when $want_codename is set (codename=, from
// lsb_release as python-apt reads it, "sid" without it), then each file
// apt reads sources from, as a blob named by its path: the sources list
// when it is a file, then every *.list in the parts directory, sorted.
// A host without apt-config prints fail=.
//
//go:embed apt_repo_read.sh
var aptRepoReadScript string

// aptRepoWriteScript applies a plan (aptSources.writePlan) with these
// helpers:
//
//	_t_same PATH MD5   stop unless PATH still holds what was read (MD5
//	                   empty: it did not exist)
//	_t_save N PATH     keep a copy of PATH (as backup N) for _t_undo
//	_t_put PATH TEXT MODE  write TEXT to PATH through a temporary file
//	                   beside it and a rename, keeping an existing file's
//	                   mode and owner (a new one gets 0666 less the
//	                   umask, as Ansible's atomic_move gives it); then
//	                   chmod MODE when MODE is set
//	_t_drop PATH       remove PATH
//	_t_undo N PATH     put backup N back at PATH, or remove PATH when it
//	                   had none (it was new)
//	_t_update          apt-get update, $retries times with a growing pause
//	                   (at most $maxdelay seconds); on failure prints
//	                   uerr= with apt's errors as python-apt words them
//
// A step that fails prints fail= and calls _t_revert, which puts back
// the files saved so far, before it exits.
//
//go:embed apt_repo_write.sh
var aptRepoWriteScript string
