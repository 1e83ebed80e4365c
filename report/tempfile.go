package report

import "os"

// createTemp makes a temporary file for the report's own use, in dir
// (os.TempDir when "") after pattern, and removes its name at once where
// the system allows an open file to lose it, so that nothing is left
// behind even if the process is killed. path is the name closeTemp must
// still remove: "" once removed.
func createTemp(dir, pattern string) (f *os.File, path string, err error) {
	f, err = os.CreateTemp(dir, pattern)
	if err != nil {
		return nil, "", err
	}
	path = f.Name()
	if os.Remove(path) == nil {
		path = ""
	}
	return f, path, nil
}

// closeTemp closes f, made by createTemp, and removes path if it is not
// gone already.
func closeTemp(f *os.File, path string) error {
	err := f.Close()
	if path != "" {
		if rerr := os.Remove(path); rerr != nil && err == nil {
			err = rerr
		}
	}
	return err
}
