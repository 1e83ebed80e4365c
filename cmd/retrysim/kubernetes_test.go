package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"go.yaml.in/yaml/v3"
)

// k8sJob is the part of a batch/v1 Job the examples use, decoded strictly:
// a field misspelt or out of place in a manifest is an error. (It checks
// the manifests' shape, not the Kubernetes API's whole schema, and they
// were not applied to a cluster.)
type k8sJob struct {
	APIVersion string `yaml:"apiVersion"`
	Kind       string `yaml:"kind"`
	Metadata   struct {
		Name string `yaml:"name"`
	} `yaml:"metadata"`
	Spec struct {
		CompletionMode       string `yaml:"completionMode"`
		Completions          int    `yaml:"completions"`
		Parallelism          int    `yaml:"parallelism"`
		BackoffLimit         *int   `yaml:"backoffLimit"`
		BackoffLimitPerIndex *int   `yaml:"backoffLimitPerIndex"`
		Template             struct {
			Spec struct {
				RestartPolicy string `yaml:"restartPolicy"`
				Containers    []struct {
					Name         string   `yaml:"name"`
					Image        string   `yaml:"image"`
					Command      []string `yaml:"command"`
					Args         []string `yaml:"args"`
					VolumeMounts []struct {
						Name      string `yaml:"name"`
						MountPath string `yaml:"mountPath"`
					} `yaml:"volumeMounts"`
				} `yaml:"containers"`
				Volumes []struct {
					Name                  string `yaml:"name"`
					PersistentVolumeClaim struct {
						ClaimName string `yaml:"claimName"`
					} `yaml:"persistentVolumeClaim"`
				} `yaml:"volumes"`
			} `yaml:"spec"`
		} `yaml:"template"`
	} `yaml:"spec"`
}

func readJob(t *testing.T, name string) *k8sJob {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "examples", "kubernetes", name))
	if err != nil {
		t.Fatal(err)
	}
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	var j k8sJob
	if err := dec.Decode(&j); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if j.APIVersion != "batch/v1" || j.Kind != "Job" || len(j.Spec.Template.Spec.Containers) != 1 || j.Spec.Template.Spec.RestartPolicy != "Never" {
		t.Fatalf("%s: not a one-container batch/v1 Job that never restarts in place: %+v", name, j)
	}
	c := j.Spec.Template.Spec.Containers[0]
	if len(c.Command) != 1 || c.Command[0] != "retrysim" || len(c.VolumeMounts) != 1 || len(j.Spec.Template.Spec.Volumes) != 1 ||
		c.VolumeMounts[0].Name != j.Spec.Template.Spec.Volumes[0].Name || j.Spec.Template.Spec.Volumes[0].PersistentVolumeClaim.ClaimName != "retrysim-results" {
		t.Fatalf("%s: the container does not run retrysim with the results volume mounted", name)
	}
	return &j
}

// podArgs is what the container runs: Kubernetes expands $(VAR) from the
// container's environment, and the volume's mount path is dir here.
func podArgs(j *k8sJob, env map[string]string, dir string) []string {
	c := j.Spec.Template.Spec.Containers[0]
	mount := c.VolumeMounts[0].MountPath
	ref := regexp.MustCompile(`\$\(([A-Z_]+)\)`)
	var out []string
	for _, a := range c.Args {
		a = ref.ReplaceAllStringFunc(a, func(m string) string { return env[m[2:len(m)-1]] })
		out = append(out, strings.ReplaceAll(a, mount, dir))
	}
	return out
}

// The Indexed Job's pods, run as processes with JOB_COMPLETION_INDEX set
// as Kubernetes sets it (one of them twice, as a retried pod), then the
// merge Job's pod: its report is the report of the same run in one
// process.
func TestKubernetesJobsMergeToTheWholeRun(t *testing.T) {
	t.Parallel()
	bin := buildBinary(t)
	shards, merge := readJob(t, "shards.yaml"), readJob(t, "merge.yaml")
	if shards.Spec.CompletionMode != "Indexed" || shards.Spec.Completions < 2 {
		t.Fatalf("shards.yaml: completionMode %q, completions %d: not an Indexed Job", shards.Spec.CompletionMode, shards.Spec.Completions)
	}
	n := shards.Spec.Completions
	args := shards.Spec.Template.Spec.Containers[0].Args
	if !slices.Contains(args, "--shard=/"+strconv.Itoa(n)) {
		t.Fatalf("shards.yaml: the pods do not run --shard=/%d (completions: %d): %v", n, n, args)
	}
	dir := t.TempDir()
	var wg sync.WaitGroup
	errs := make([]error, n)
	outs := make([][]byte, n)
	for i := range n {
		wg.Go(func() {
			cmd := exec.Command(bin, podArgs(shards, map[string]string{"JOB_COMPLETION_INDEX": strconv.Itoa(i)}, dir)...)
			cmd.Env = append(os.Environ(), "JOB_COMPLETION_INDEX="+strconv.Itoa(i))
			outs[i], errs[i] = cmd.CombinedOutput()
		})
	}
	wg.Wait()
	for i := range n {
		if errs[i] != nil {
			t.Fatalf("pod %d: %v\n%s", i, errs[i], outs[i])
		}
	}
	// A pod that failed is retried with its index: it writes the same
	// stream again (apart from the wall-clock start of the run).
	again := t.TempDir()
	retry := exec.Command(bin, podArgs(shards, map[string]string{"JOB_COMPLETION_INDEX": "1"}, again)...)
	retry.Env = append(os.Environ(), "JOB_COMPLETION_INDEX=1")
	if out, err := retry.CombinedOutput(); err != nil {
		t.Fatalf("pod 1 retried: %v\n%s", err, out)
	}
	first, _ := os.ReadFile(filepath.Join(dir, "shard-1.jsonl"))
	second, err := os.ReadFile(filepath.Join(again, "shard-1.jsonl"))
	if err != nil || len(first) == 0 || !bytes.Equal(withoutWallStart(first), withoutWallStart(second)) {
		t.Fatalf("pod 1 retried wrote another stream (%v)", err)
	}
	merged, err := exec.Command(bin, podArgs(merge, nil, dir)...).Output()
	if err != nil {
		t.Fatalf("the merge pod: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "report.md")); err != nil {
		t.Errorf("the merge pod wrote no --out report: %v", err)
	}
	// The same run in one process: the pods' command without --shard.
	var whole []string
	for _, a := range podArgs(shards, nil, dir) {
		if strings.HasPrefix(a, "--shard") {
			continue
		}
		if strings.HasPrefix(a, "--results") {
			a = "--results=" + filepath.Join(t.TempDir(), "whole.jsonl")
		}
		whole = append(whole, a)
	}
	if _, err := exec.Command(bin, whole...).Output(); err != nil {
		t.Fatalf("the whole run: %v", err)
	}
	want, _ := exec.Command(bin, "report", strings.TrimPrefix(whole[len(whole)-2], "--results="), "--format=json", "--fail-on=lost-events").Output()
	if !bytes.Equal(merged, want) {
		t.Fatalf("the merged report differs from the whole run's:\n%s\n---\n%s", merged, want)
	}
	var rep struct {
		Runs []struct {
			RunID   string `json:"run_id"`
			Summary struct {
				Events  int `json:"events"`
				Tenants *struct {
					Tenants int `json:"tenants"`
				} `json:"tenants"`
			} `json:"summary"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(merged, &rep); err != nil || len(rep.Runs) != 1 || rep.Runs[0].Summary.Events != 10000 || rep.Runs[0].Summary.Tenants == nil {
		t.Fatalf("the merged report: %v %+v\n%s", err, rep, merged)
	}
}
