package report

import "image/color"

// pauseColour shades the spans in which the provider had disabled the
// endpoint for a while (a disable rule's backoff, GitLab's): nothing was
// sent then, unlike an outage, where attempts were sent and refused.
var pauseColour = color.NRGBA{0xCC, 0x79, 0xA7, 0x38}

// pauseLegend names the pause band in a chart's legend.
const pauseLegend = "endpoint disabled for a while (nothing sent)"
