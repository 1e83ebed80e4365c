package manifestcheck

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"
)

// manifests are the decoded documents of examples/kubernetes, by kind.
type manifests struct {
	jobs   map[string]*batchv1.Job                  // by file
	claims map[string]*corev1.PersistentVolumeClaim // by name
}

// decode reads one document strictly into the API type its apiVersion and
// kind name: a field the type does not have, or a value of the wrong
// type, is an error.
func (m *manifests) decode(file string, doc []byte) error {
	var tm metav1.TypeMeta
	if err := yaml.Unmarshal(doc, &tm); err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	switch tm.APIVersion + " " + tm.Kind {
	case "batch/v1 Job":
		var j batchv1.Job
		if err := yaml.UnmarshalStrict(doc, &j); err != nil {
			return fmt.Errorf("%s: %w", file, err)
		}
		m.jobs[file] = &j
	case "v1 PersistentVolumeClaim":
		var c corev1.PersistentVolumeClaim
		if err := yaml.UnmarshalStrict(doc, &c); err != nil {
			return fmt.Errorf("%s: %w", file, err)
		}
		m.claims[c.Name] = &c
	default:
		return fmt.Errorf("%s: a %s %s, which this check does not know", file, tm.APIVersion, tm.Kind)
	}
	return nil
}

func load(t *testing.T) *manifests {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no manifests in examples/kubernetes (%v)", err)
	}
	m := &manifests{jobs: map[string]*batchv1.Job{}, claims: map[string]*corev1.PersistentVolumeClaim{}}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, doc := range bytes.Split(b, []byte("\n---")) {
			if len(bytes.TrimSpace(doc)) == 0 {
				continue
			}
			if err := m.decode(filepath.Base(f), doc); err != nil {
				t.Error(err)
			}
		}
	}
	return m
}

// Every manifest is a Job or a claim of the Kubernetes API, with no field
// the API does not have, and the Jobs hold together as the API server
// requires of the fields they use (a subset of its validation).
func TestManifestsDecodeStrictly(t *testing.T) {
	m := load(t)
	if len(m.jobs) != 2 || len(m.claims) != 1 {
		t.Fatalf("%d Jobs and %d claims; want the shards' and the merge's Jobs and one claim", len(m.jobs), len(m.claims))
	}
	for file, j := range m.jobs {
		for _, err := range checkJob(j, m.claims) {
			t.Errorf("%s: %v", file, err)
		}
	}
	shards := m.jobs["shards.yaml"]
	if shards == nil || shards.Spec.CompletionMode == nil || *shards.Spec.CompletionMode != batchv1.IndexedCompletion {
		t.Fatal("shards.yaml is not an Indexed Job")
	}
}

// checkJob checks what the API server would refuse in the fields these
// Jobs use.
func checkJob(j *batchv1.Job, claims map[string]*corev1.PersistentVolumeClaim) []error {
	var errs []error
	s := &j.Spec
	if j.Name == "" {
		errs = append(errs, fmt.Errorf("metadata.name is empty"))
	}
	if rp := s.Template.Spec.RestartPolicy; rp != corev1.RestartPolicyNever && rp != corev1.RestartPolicyOnFailure {
		errs = append(errs, fmt.Errorf("spec.template.spec.restartPolicy %q: a Job's must be Never or OnFailure", rp))
	}
	indexed := s.CompletionMode != nil && *s.CompletionMode == batchv1.IndexedCompletion
	if indexed && s.Completions == nil {
		errs = append(errs, fmt.Errorf("spec.completions: an Indexed Job needs it"))
	}
	if s.BackoffLimitPerIndex != nil {
		if !indexed {
			errs = append(errs, fmt.Errorf("spec.backoffLimitPerIndex: only for an Indexed Job"))
		}
		if s.Template.Spec.RestartPolicy != corev1.RestartPolicyNever {
			errs = append(errs, fmt.Errorf("spec.backoffLimitPerIndex: needs restartPolicy Never"))
		}
	}
	volumes := map[string]bool{}
	for _, v := range s.Template.Spec.Volumes {
		volumes[v.Name] = true
		if pvc := v.PersistentVolumeClaim; pvc != nil {
			c := claims[pvc.ClaimName]
			switch {
			case c == nil:
				errs = append(errs, fmt.Errorf("volume %s: no claim %q among the manifests", v.Name, pvc.ClaimName))
			case !slices.Contains(c.Spec.AccessModes, corev1.ReadWriteMany):
				errs = append(errs, fmt.Errorf("volume %s: claim %s is not ReadWriteMany: the pods share it", v.Name, c.Name))
			}
		}
	}
	if len(s.Template.Spec.Containers) == 0 {
		errs = append(errs, fmt.Errorf("no container"))
	}
	for _, c := range s.Template.Spec.Containers {
		if c.Name == "" || c.Image == "" {
			errs = append(errs, fmt.Errorf("a container without a name or an image"))
		}
		for _, vm := range c.VolumeMounts {
			if !volumes[vm.Name] {
				errs = append(errs, fmt.Errorf("container %s mounts %q, which is no volume of the pod", c.Name, vm.Name))
			}
		}
		for _, a := range c.Args {
			// Kubernetes sets JOB_COMPLETION_INDEX in an Indexed Job's
			// pods only; elsewhere $(JOB_COMPLETION_INDEX) stays as it is.
			if strings.Contains(a, "$(JOB_COMPLETION_INDEX)") && !indexed {
				errs = append(errs, fmt.Errorf("container %s: %q uses JOB_COMPLETION_INDEX outside an Indexed Job", c.Name, a))
			}
		}
	}
	return errs
}

// The check refuses what a cluster would: a misspelt field, a value of
// the wrong type, a Job that cannot be Indexed.
func TestCheckRefusesBadManifests(t *testing.T) {
	for _, c := range []struct{ name, doc string }{
		{"misspelt field", "apiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\nspec:\n  completionsMode: Indexed\n"},
		{"wrong type", "apiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\nspec:\n  completions: four\n"},
		{"unknown kind", "apiVersion: batch/v1\nkind: CronTab\nmetadata: {name: j}\n"},
	} {
		m := &manifests{jobs: map[string]*batchv1.Job{}, claims: map[string]*corev1.PersistentVolumeClaim{}}
		if err := m.decode(c.name, []byte(c.doc)); err == nil {
			t.Errorf("%s: decoded", c.name)
		}
	}
	m := &manifests{jobs: map[string]*batchv1.Job{}, claims: map[string]*corev1.PersistentVolumeClaim{}}
	doc := "apiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\nspec:\n  completionMode: Indexed\n  backoffLimitPerIndex: 1\n  template:\n    spec:\n      restartPolicy: OnFailure\n      containers: [{name: c, image: i}]\n"
	if err := m.decode("j.yaml", []byte(doc)); err != nil {
		t.Fatal(err)
	}
	if errs := checkJob(m.jobs["j.yaml"], m.claims); len(errs) != 2 {
		t.Errorf("an Indexed Job without completions, with a per-index limit and OnFailure: %v, want 2 errors", errs)
	}
}
