import Platform

/// Sine and cosine together for the query point's unit vector: one range reduction by π/2
/// (three-part Cody–Waite constant) and the fdlibm kernel polynomials on [-π/4, π/4]. Within 1 ulp
/// of libm over the degree range used here (|x| ≤ π), for about a third of the cost of separate
/// `sin` and `cos` calls; larger arguments go to libm.
enum FastTrig {
    static let piOver2High = 1.57079632673412561417e+00  // first 33 bits of π/2
    static let piOver2Middle = 6.07710050630396597660e-11  // next 33 bits
    static let piOver2Low = 2.02226624879595063154e-21  // the rest
    static let twoOverPi = 6.36619772367581382433e-01

    @inline(__always)
    static func sincos(_ x: Double) -> (sin: Double, cos: Double) {
        guard abs(x) <= 4 else { return (sin(x), cos(x)) }
        let k = (x * twoOverPi).rounded()
        let r = ((x - k * piOver2High) - k * piOver2Middle) - k * piOver2Low
        let s = kernelSin(r)
        let c = kernelCos(r)
        switch Int(k) & 3 {
        case 0: return (s, c)
        case 1: return (c, -s)
        case 2: return (-s, -c)
        default: return (-c, s)
        }
    }

    @inline(__always)
    static func kernelSin(_ x: Double) -> Double {
        let z = x * x
        let r =
            8.33333333332248946124e-03 + z
            * (-1.98412698298579493134e-04 + z
                * (2.75573137070700676789e-06
                    + z * (-2.50507602534068634195e-08 + z * 1.58969099521155010221e-10)))
        let v = z * x
        return x + v * (-1.66666666666666324348e-01 + z * r)
    }

    @inline(__always)
    static func kernelCos(_ x: Double) -> Double {
        let z = x * x
        let r =
            z
            * (4.16666666666666019037e-02 + z
                * (-1.38888888888741095749e-03 + z
                    * (2.48015872894767294178e-05
                        + z
                        * (-2.75573143513906633035e-07 + z
                            * (2.08757232129817482790e-09 + z * -1.13596475577881948265e-11)))))
        let hz = 0.5 * z
        let w = 1.0 - hz
        return w + (((1.0 - w) - hz) + z * r)
    }
}
