// Package figures draws hetgain's results as gonum/plot pictures: line
// charts, heat maps with a colour bar, strips of Schur classes along a
// parameter axis, recorded episodes (Episode: trajectories, goals,
// escapers and obstacles; EffortLines and EffortStrips: the effort matrix
// along an episode), trained teams' mean effort matrices side by side
// (Allocations), training curves with shaded bands (Bands, BandPanels),
// estimates with error bars by category (Intervals), and paired values
// by category, each pair a line from its first value to its second
// (Slopes: the gains of the same seeds trained two ways; SlopesAsinh on
// an axis that is logarithmic far from 0, for a few pairs far from the
// rest).
//
// Every constructor returns a *Figure. A Figure has a PNG method, so a
// gophernotes notebook draws it when it is the last expression of a cell,
// and a Save method that writes PNG, SVG or PDF by the file's extension.
// The plot fonts (Liberation) have Greek letters and common mathematical
// signs (Δ, τ, ≥) but not all (∘ and ≻ are missing): write "U=min, T=max"
// rather than "min∘max" in titles and legends.
//
// Constructors do not panic on data. Given malformed data (lengths that
// do not match, NaN or infinite values, finite values too far apart to
// draw: an axis, or a heat map's colour scale, whose span overflows
// float64), a constructor returns a Figure that carries a "figures: ..."
// error naming the series, band, panel or axis at fault, and wrapping
// ErrData: its Err method returns the error, Encode and Save return it
// (Save leaves the file alone), and PNG panics with its message, which a
// notebook shows. Encode and Save also return an error for an unknown
// format, a nil or zero Figure, a Width or Height that is not finite and
// above 0, or a raster image (png, jpg, tif) of more than MaxPixels
// pixels; PNG panics with that error's message too. Paths and Discs,
// which only convert data, panic on records or centres of the wrong shape.
//
// Series, bands, interval series and agents are told apart by colour:
// plotutil's seven default colours, then thirteen more, twenty in all
// before a colour repeats (a mean and 18 seeds, or 20 agents, each have
// their own).
//
// Constructors take data, not computations: the packages gain and schur
// compute, this package only draws. Titles and labels are constructor
// arguments, because a Figure is finished when it is made (see Figure for
// why it hides its plot). Figures of panels (BandPanels, Allocations,
// Episode, EffortLines, EffortStrips) size themselves from their panels,
// and widen to fit a title longer than the panels are wide.
package figures
