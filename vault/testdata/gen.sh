#!/usr/bin/env bash
# Records vault data written by ansible-vault (ansible-core) for tender's
# tests, and checks that ansible-vault opens what tender writes. Rerun by
# hand when the samples change; commit what it writes. Needs ansible-vault
# and go.
set -euo pipefail
cd "$(dirname "$0")"
command -v ansible-vault >/dev/null || { echo "gen.sh: ansible-vault is not installed" >&2; exit 1; }
ansible-vault --version > ansible-version.txt && sed -i 1q ansible-version.txt

printf 'pw-default\n' > pw-default
printf 'pw-dev\n' > pw-dev
printf '  pw-prod  \n' > pw-prod  # Ansible strips white space around a password file's content

# plain.txt: several lines, UTF-8, a trailing newline; block16.txt: exactly
# one AES block, so that padding adds a whole block.
printf 'db_password: s3cr3t-hunter2\napi_token: "tok-é-✓"\nlist:\n  - one\n  - two\n' > plain.txt
printf '0123456789abcdef' > block16.txt
: > empty.txt

enc() { # enc OUT IN ARGS...: encrypt IN with ansible-vault into OUT
	local out=$1 in=$2; shift 2
	cp "$in" "$out"
	ansible-vault encrypt "$@" "$out" >/dev/null
}
enc ansible-1.1.vault plain.txt --vault-password-file pw-default
enc ansible-1.2.vault plain.txt --vault-id dev@pw-dev
enc ansible-prod.vault plain.txt --vault-id prod@pw-prod
enc ansible-block16.vault block16.txt --vault-password-file pw-default
enc ansible-empty.vault empty.txt --vault-password-file pw-default

# An inventory-style vars file with inline vaulted strings of two ids.
{
	echo 'plain_var: visible'
	ansible-vault encrypt_string --vault-id dev@pw-dev --name db_password 's3cr3t-hunter2' 2>/dev/null; echo
	ansible-vault encrypt_string --vault-password-file pw-default --name api_token 'tok-inline' 2>/dev/null; echo
} > ansible-inline.yml

# Files tender writes, opened by ansible-vault: the recorded output must be
# plain.txt, which vault_test.go checks.
go run ./mksamples
ansible-vault view --vault-password-file pw-default tender-1.1.vault > tender-1.1.ansible-view
ansible-vault view --vault-id dev@pw-dev tender-1.2.vault > tender-1.2.ansible-view
cmp plain.txt tender-1.1.ansible-view
cmp plain.txt tender-1.2.ansible-view
echo "gen.sh: recorded; ansible-vault opens tender's files"
