package policies

// All returns every policy of the catalogue, in its order.
func (c *Catalogue) All() []Policy {
	var all []Policy
	for _, n := range c.Names() {
		if p, err := c.Lookup(n); err == nil {
			all = append(all, p)
		}
	}
	return all
}

// Settable are the names of the catalogue's policies whose number of
// retries can be set (Policy.WithRetries), in the catalogue's order.
func (c *Catalogue) Settable() []string {
	var out []string
	for _, n := range c.Names() {
		if p, _ := c.Lookup(n); p.Retries != nil {
			out = append(out, n)
		}
	}
	return out
}
