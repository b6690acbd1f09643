package tasks

// SetBeforeOpen sets the hook Policy.Open runs between its check and its
// open (nil: none), for the tests of package tasks_test.
func SetBeforeOpen(f func(real string)) { beforeOpen = f }
