package main

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"math"
	"os"
	"sort"

	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"
)

// A plot of the results against host count: wall time on the left, peak
// RSS on the right, one line per (run, RTT) series, on log-log axes: a
// cost that grows in proportion to the hosts climbs one decade per decade
// of hosts (the dashed guide), a steeper line grows faster than the fleet.

const (
	panelW, panelH = 560, 380
	marginL        = 70
	marginR        = 20
	marginT        = 40
	marginB        = 50
)

var seriesColors = []color.RGBA{
	{0x1f, 0x77, 0xb4, 0xff}, {0xd6, 0x27, 0x28, 0xff}, {0x2c, 0xa0, 0x2c, 0xff},
	{0xff, 0x7f, 0x0e, 0xff}, {0x94, 0x67, 0xbd, 0xff}, {0x8c, 0x56, 0x4b, 0xff},
}

// series is one line of a panel.
type series struct {
	name   string
	points [][2]float64 // hosts, value
}

// plotResults writes the PNG at path; it needs two host counts or more.
func plotResults(path string, rs []result) error {
	byName := map[string]*series{}
	var order []string
	hostSet := map[int]bool{}
	for _, r := range rs {
		name := fmt.Sprintf("%s, rtt %v", r.run, r.rtt)
		if byName[name] == nil {
			byName[name] = &series{name: name}
			order = append(order, name)
		}
		hostSet[r.hosts] = true
	}
	if len(hostSet) < 2 {
		return nil
	}
	wall := make([]series, len(order))
	rss := make([]series, len(order))
	for i, n := range order {
		wall[i].name, rss[i].name = n, n
	}
	for _, r := range rs {
		i := indexOf(order, fmt.Sprintf("%s, rtt %v", r.run, r.rtt))
		wall[i].points = append(wall[i].points, [2]float64{float64(r.hosts), r.wall.Seconds()})
		rss[i].points = append(rss[i].points, [2]float64{float64(r.hosts), float64(r.maxRSS) / 1024})
	}
	img := image.NewRGBA(image.Rect(0, 0, 2*panelW, panelH+20*len(order)+10))
	draw.Draw(img, img.Bounds(), image.White, image.Point{}, draw.Src)
	drawPanel(img, 0, "wall time (s) against hosts", wall)
	drawPanel(img, panelW, "tender peak RSS (MiB) against hosts", rss)
	for i, n := range order {
		y := panelH + 20*i + 15
		c := seriesColors[i%len(seriesColors)]
		fillRect(img, marginL, y-8, marginL+20, y-4, c)
		label(img, marginL+28, y, n, color.Black)
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func indexOf(ss []string, s string) int {
	for i, x := range ss {
		if x == s {
			return i
		}
	}
	return -1
}

// drawPanel draws one panel at x offset ox, both axes log10.
func drawPanel(img *image.RGBA, ox int, title string, ss []series) {
	minH, maxH, minV, maxV := math.Inf(1), 0.0, math.Inf(1), 0.0
	for _, s := range ss {
		for _, p := range s.points {
			minH, maxH = math.Min(minH, p[0]), math.Max(maxH, p[0])
			if p[1] > 0 {
				minV, maxV = math.Min(minV, p[1]), math.Max(maxV, p[1])
			}
		}
	}
	if maxV <= 0 {
		minV, maxV = 1, 10
	}
	vlo, vhi := math.Floor(math.Log10(minV)), math.Ceil(math.Log10(maxV))
	if vhi == vlo {
		vhi++
	}
	lo, hi := math.Log10(minH), math.Log10(maxH)
	x0, x1 := ox+marginL, ox+panelW-marginR
	y0, y1 := panelH-marginB, marginT
	px := func(h float64) int {
		if hi == lo {
			return (x0 + x1) / 2
		}
		return x0 + int(float64(x1-x0)*(math.Log10(h)-lo)/(hi-lo))
	}
	py := func(v float64) int {
		v = math.Max(v, math.Pow(10, vlo))
		return y0 - int(float64(y0-y1)*(math.Log10(v)-vlo)/(vhi-vlo))
	}
	grey := color.RGBA{0xdd, 0xdd, 0xdd, 0xff}
	label(img, ox+marginL, 20, title, color.Black)
	for e := vlo; e <= vhi; e++ {
		for _, m := range []float64{1, 2, 5} {
			v := m * math.Pow(10, e)
			if e == vhi && m > 1 {
				break
			}
			y := py(v)
			line(img, x0, y, x1, y, grey)
			label(img, ox+8, y+4, trimFloat(v), color.Black)
		}
	}
	var hosts []float64
	seen := map[float64]bool{}
	for _, s := range ss {
		for _, p := range s.points {
			if !seen[p[0]] {
				seen[p[0]] = true
				hosts = append(hosts, p[0])
			}
		}
	}
	sort.Float64s(hosts)
	for _, h := range hosts {
		x := px(h)
		line(img, x, y0, x, y1, grey)
		label(img, x-12, y0+18, fmt.Sprint(int(h)), color.Black)
	}
	label(img, (x0+x1)/2-20, y0+38, "hosts", color.Black)
	line(img, x0, y0, x1, y0, color.Black)
	line(img, x0, y0, x0, y1, color.Black)
	// The guide: proportional growth from the first series' first point.
	if len(ss) > 0 && len(ss[0].points) > 0 && hi > lo {
		p := ss[0].points[0]
		for _, q := range ss[0].points {
			if q[0] < p[0] {
				p = q
			}
		}
		for h := p[0]; h <= maxH; h *= 1.02 {
			if int(math.Log(h)/math.Log(1.02))%2 == 0 {
				x, y := px(h), py(p[1]*h/p[0])
				if y >= y1 {
					img.Set(x, y, color.Gray{0x88})
				}
			}
		}
	}
	for i, s := range ss {
		c := seriesColors[i%len(seriesColors)]
		pts := append([][2]float64(nil), s.points...)
		sort.Slice(pts, func(a, b int) bool { return pts[a][0] < pts[b][0] })
		for j, p := range pts {
			x, y := px(p[0]), py(p[1])
			fillRect(img, x-3, y-3, x+3, y+3, c)
			if j > 0 {
				thickLine(img, px(pts[j-1][0]), py(pts[j-1][1]), x, y, c)
			}
		}
	}
}

func trimFloat(v float64) string {
	if v == math.Trunc(v) {
		return fmt.Sprint(int(v))
	}
	return fmt.Sprintf("%.1f", v)
}

func label(img *image.RGBA, x, y int, s string, c color.Color) {
	d := font.Drawer{Dst: img, Src: image.NewUniform(c), Face: basicfont.Face7x13, Dot: fixed.P(x, y)}
	d.DrawString(s)
}

func fillRect(img *image.RGBA, x0, y0, x1, y1 int, c color.Color) {
	draw.Draw(img, image.Rect(x0, y0, x1+1, y1+1), image.NewUniform(c), image.Point{}, draw.Src)
}

// line draws a one-pixel line (Bresenham).
func line(img *image.RGBA, x0, y0, x1, y1 int, c color.Color) {
	dx, dy := abs(x1-x0), -abs(y1-y0)
	sx, sy := sign(x1-x0), sign(y1-y0)
	e := dx + dy
	for {
		img.Set(x0, y0, c)
		if x0 == x1 && y0 == y1 {
			return
		}
		e2 := 2 * e
		if e2 >= dy {
			e += dy
			x0 += sx
		}
		if e2 <= dx {
			e += dx
			y0 += sy
		}
	}
}

func thickLine(img *image.RGBA, x0, y0, x1, y1 int, c color.Color) {
	for d := -1; d <= 1; d++ {
		line(img, x0, y0+d, x1, y1+d, c)
	}
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

func sign(n int) int {
	switch {
	case n > 0:
		return 1
	case n < 0:
		return -1
	}
	return 0
}
