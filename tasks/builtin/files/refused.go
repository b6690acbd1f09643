package files

// selinuxRefused are the options of selinux that tender does not
// implement yet; Spec.Decode refuses them with the reason.
var selinuxRefused = map[string]string{
	"update_kernel_param": "changes the kernel command line through grubby; not implemented yet",
}
