package main

// limitErrs keeps the errors of checks that failed.
func limitErrs(checks ...error) []error {
	var errs []error
	for _, err := range checks {
		if err != nil {
			errs = append(errs, err)
		}
	}
	return errs
}
