import Presentation

/// `active` (opening hours, `Mo-Fr 07:00-19:00`) in the fence's `timezone`, else in the user's zone
/// (`ActiveSchedule`): when the fence counts. The `timezone` is also the one of `expires` and of the
/// conditional limits (without one, they too are read in the user's zone). The engine's part is
/// Events' `ActiveWindowRule`.
public enum ActiveHours: FenceRuleDefinition {
    public static let properties = [RuleProperty("active", .text), RuleProperty("timezone", .text)]

    public static func resolve(_ values: RuleValues, into rules: inout FenceRules, context: inout RuleContext)
        throws(RuleProblem)
    {
        if let timezone = values[1]?.text {
            do throws(ZoneError) {
                context.timezone = try context.cache.zone(timezone)
            } catch {
                throw .zone(error)
            }
        }
        guard let active = values[0]?.text else { return }
        do throws(OpeningHoursError) {
            rules.active = ActiveSchedule(hours: try context.cache.openingHours(active), zone: context.timezone)
        } catch {
            throw .hours(property: properties[0].name, value: active, error)
        }
    }
}
