// Package manifestcheck checks the Kubernetes manifests of
// examples/kubernetes against the Kubernetes API's own Go types: each
// document is decoded strictly (a field the API does not have is an
// error) into the type its kind names, and the Jobs are checked as the
// API server would check the fields an Indexed Job depends on. It is a
// module of its own so that the main module does not depend on
// k8s.io/api; .ci/run builds, vets and tests it with every module.
//
// This is a schema check only: the manifests are not applied to a
// cluster here.
package manifestcheck
