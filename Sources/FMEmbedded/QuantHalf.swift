/// IEEE 754 half-precision conversions by bit manipulation (portable: no `Float16` type needed).
public enum Half {
    /// The float value of the half-precision bit pattern `bits` (subnormals, infinities and NaN included).
    @inlinable public static func toFloat(_ bits: UInt16) -> Float {
        let sign = UInt32(bits & 0x8000) << 16
        let exponent = UInt32(bits >> 10) & 0x1F
        let mantissa = UInt32(bits) & 0x3FF
        if exponent == 0 {
            // Zero or subnormal: mantissa × 2^-24.
            let magnitude = Float(mantissa) * (1.0 / 16_777_216.0)
            return sign == 0 ? magnitude : -magnitude
        }
        if exponent == 0x1F {
            return Float(bitPattern: sign | 0x7F80_0000 | (mantissa << 13))
        }
        return Float(bitPattern: sign | ((exponent + 112) << 23) | (mantissa << 13))
    }

    /// The nearest half-precision bit pattern to `value` (round to nearest even; overflow gives infinity).
    public static func fromFloat(_ value: Float) -> UInt16 {
        let bits = value.bitPattern
        let sign = UInt16((bits >> 16) & 0x8000)
        if value.isNaN { return sign | 0x7E00 }
        let magnitude = abs(value)
        if magnitude >= 65520 { return sign | 0x7C00 }
        if magnitude < 6.103_515_6e-05 {
            // Subnormal range: count units of 2^-24, rounding to nearest even.
            let units = (magnitude * 16_777_216).rounded(.toNearestOrEven)
            return sign | UInt16(units)
        }
        let exponent = Int((bits >> 23) & 0xFF) - 127 + 15
        var mantissa = bits & 0x7F_FFFF
        var halfExponent = UInt32(exponent)
        let dropped = mantissa & 0x1FFF
        mantissa >>= 13
        if dropped > 0x1000 || (dropped == 0x1000 && mantissa & 1 == 1) {
            mantissa += 1
            if mantissa == 0x400 { mantissa = 0; halfExponent += 1 }
        }
        return sign | UInt16(halfExponent << 10) | UInt16(mantissa)
    }
}
