package packages

import (
	_ "embed"

	"github.com/tender-sh/tender/tasks/builtin/internal/shared"
)

// rpmKeyScript is rpm_key's check-and-apply in one round trip, as
// ansible-core 2.14's rpm_key does it with the host's rpm and gpg.
// Inputs (shell variables set by the module):
//
//	key          the key parameter
//	kind         url (the fetched key is on stdin), keyid or path
//	state        present or absent
//	fingerprint  the fingerprint asked for, upper-case without spaces
//	_t_check     non-empty: change nothing
//
// It prints a blob named fail holding Ansible's message (the stderr of
// the command that failed, or its own), or changed=0 or changed=1.
var rpmKeyScript = shared.BlobFuncs + rpmKeyScriptBody

//go:embed rpm_key.sh
var rpmKeyScriptBody string
