package cuda

import (
	"fmt"
	"path"

	gzwalk "github.com/bazelbuild/bazel-gazelle/walk"
)

// scanRepository calls visit with the regular files of each directory of the repository that
// Gazelle's walk does not exclude, from the root down. Gazelle's directory cache exists only while
// it walks the repository; outside a walk, an error says so.
func scanRepository(visit func(rel string, files []string)) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("the repository's directories cannot be listed: %v", p)
		}
	}()
	queue := []string{""}
	for len(queue) > 0 {
		rel := queue[0]
		queue = queue[1:]
		info, err := gzwalk.GetDirInfo(rel)
		if err != nil {
			continue // an excluded directory
		}
		visit(rel, info.RegularFiles)
		for _, d := range info.Subdirs {
			queue = append(queue, path.Join(rel, d))
		}
	}
	return nil
}
