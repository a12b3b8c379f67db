#if canImport(Glibc)
    import Glibc
#endif

/// CIELAB (D65) and the CIEDE2000 colour difference: the standard
/// yardstick for how different two colours look, independent of the OKLab
/// difference the palette mapping uses.
struct CIELab {
    var l: Double, a: Double, b: Double

    init(_ r: Int, _ g: Int, _ b: Int) {
        func linear(_ v: Int) -> Double {
            let c = Double(v) / 255
            return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        let (lr, lg, lb) = (linear(r), linear(g), linear(b))
        let x = (0.4124 * lr + 0.3576 * lg + 0.1805 * lb) / 0.95047
        let y = 0.2126 * lr + 0.7152 * lg + 0.0722 * lb
        let z = (0.0193 * lr + 0.1192 * lg + 0.9505 * lb) / 1.08883
        func f(_ t: Double) -> Double { t > 216.0 / 24389 ? cbrt(t) : t * 24389 / 27 / 116 + 16.0 / 116 }
        l = 116 * f(y) - 16
        a = 500 * (f(x) - f(y))
        self.b = 200 * (f(y) - f(z))
    }

    init(l: Double, a: Double, b: Double) {
        self.l = l
        self.a = a
        self.b = b
    }

    /// ΔE*76: the straight distance.
    func deltaE76(_ o: CIELab) -> Double {
        let dl = l - o.l
        let da = a - o.a
        let db = b - o.b
        return (dl * dl + da * da + db * db).squareRoot()
    }

    /// ΔE00 (Sharma, Wu and Dalal's formulation).
    func deltaE2000(_ o: CIELab) -> Double {
        func pow7(_ x: Double) -> Double {
            let x2 = x * x
            return x2 * x2 * x2 * x
        }
        let c1 = (a * a + b * b).squareRoot()
        let c2 = (o.a * o.a + o.b * o.b).squareRoot()
        let g = 0.5 * (1 - (pow7((c1 + c2) / 2) / (pow7((c1 + c2) / 2) + pow7(25))).squareRoot())
        let a1 = (1 + g) * a
        let a2 = (1 + g) * o.a
        let c1p = (a1 * a1 + b * b).squareRoot()
        let c2p = (a2 * a2 + o.b * o.b).squareRoot()
        func hue(_ y: Double, _ x: Double) -> Double {
            x == 0 && y == 0 ? 0 : (atan2(y, x) * 180 / .pi + 360).truncatingRemainder(dividingBy: 360)
        }
        let h1 = hue(b, a1)
        let h2 = hue(o.b, a2)
        var dh = 0.0
        var hm = h1 + h2
        if c1p * c2p != 0 {
            dh = h2 - h1
            if dh > 180 { dh -= 360 } else if dh < -180 { dh += 360 }
            if abs(h1 - h2) > 180 { hm += h1 + h2 < 360 ? 360 : -360 }
            hm /= 2
        }
        let dL = o.l - l
        let dC = c2p - c1p
        let dH = 2 * (c1p * c2p).squareRoot() * sin(dh * .pi / 360)
        let lm = (l + o.l) / 2
        let cm = (c1p + c2p) / 2
        func cosd(_ x: Double) -> Double { cos(x * .pi / 180) }
        let t = 1 - 0.17 * cosd(hm - 30) + 0.24 * cosd(2 * hm) + 0.32 * cosd(3 * hm + 6) - 0.20 * cosd(4 * hm - 63)
        let rt = -sin(60 * exp(-pow((hm - 275) / 25, 2)) * .pi / 180) * 2 * (pow7(cm) / (pow7(cm) + pow7(25))).squareRoot()
        let sl = 1 + 0.015 * (lm - 50) * (lm - 50) / (20 + (lm - 50) * (lm - 50)).squareRoot()
        let sc = 1 + 0.045 * cm
        let sh = 1 + 0.015 * cm * t
        return ((dL / sl) * (dL / sl) + (dC / sc) * (dC / sc) + (dH / sh) * (dH / sh) + rt * (dC / sc) * (dH / sh)).squareRoot()
    }
}
