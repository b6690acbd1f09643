package modtest

// Two public keys for tests of the modules that manage SSH keys.
const (
	TestKey1 = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIIfGDQ0/xbwRF4gkNoJw32NX4lsoA7X5hlPJr9PM0hbC one@example"
	TestKey2 = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHy8N1lt8X+VMXn932R4nJVtZkqUgz4l5dovqo8d0fEX two@example"
)
