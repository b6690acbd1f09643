// Package packages installs and inspects packages: apt, dnf, yum, package,
// pip, apt_key, apt_repository, dpkg_selections, package_facts, rpm_key,
// yum_repository and debconf. Register adds them to a registry;
// builtin.Registry is the one place that gathers every family.
package packages
