package scenarios

import "go.yaml.in/yaml/v3"

// statusList is one HTTP status or a list of them.
type statusList []int

// UnmarshalYAML accepts `503` as well as `[502, 503, 504]`.
func (s *statusList) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode {
		var one int
		if err := n.Decode(&one); err != nil {
			return err
		}
		*s = statusList{one}
		return nil
	}
	var many []int
	if err := n.Decode(&many); err != nil {
		return err
	}
	*s = many
	return nil
}
