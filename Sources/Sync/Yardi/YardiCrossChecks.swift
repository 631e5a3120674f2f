/// The Yardi cross-checks: where two Yardi payloads (or a payload and the unified rows built from it) state the same
/// fact, a disagreement beyond the tolerance is a warning (unified_sync_warnings), never silently resolved.
///
/// | check | compares | tolerance |
/// | --- | --- | --- |
/// | snapshot | each operation's snapshot date with the property date (GetUnitInformation's); a missing operation | same date |
/// | units_missing | no GetUnitInformation units (no snapshot, or one listing none) and no AvailableUnits_Login feed listing every unit: the property is synced without units (see YardiSource), the reason named | none allowed |
/// | unit_source | the units come from the AvailableUnits_Login marketing feed (GetUnitInformation lists none): says so | always |
/// | ils_unit_count | that feed's declared unit count (`Property/Information/UnitCount`) vs the units it lists (the listed are counted) | exact |
/// | unit_status_available_units | a unit's status text in GetUnitInformation vs AvailableUnits (same date only; mapped statuses compared, GetUnitInformation wins) | exact |
/// | unit_economic_status | `UnitEconomicStatus` model/down vs the status text (the text wins) | exact |
/// | made_ready | `Ready`/`Not Ready` in the status text vs an AvailableUnits MadeReadyDate, for vacant units AvailableUnits lists (same date) | exact |
/// | notice_move_out | an on-notice unit with no move-out date (exposure 30/60 cannot place it), or an `Occupied No Notice` unit whose household is on notice | exact |
/// | current_resident | an occupied unit whose household is not in GetResidentsByStatus (no in-place rent) | exact |
/// | ledger_balance | per household: Σ charge Amount vs Σ AmountPaid + Σ BalanceDue (the charges' own figures; the aging follows BalanceDue) | $0.01 |
/// | ledger_window | per household: the window's Σ charges − Σ payments vs Σ BalanceDue (YardiDelinquency: BalanceDue wins; a gap is payments applied that the window lacks, carried as a balance-forward line: YardiLedger.insertBalanceForward) | exact |
/// | ledger_tenant | ledger rows without a tenant code (left out of delinquency) | none allowed |
/// | guest_event_type | guest-card event types not in YardiActivity.eventTypes (kept as `other`) | none allowed |
enum YardiCrossChecks {
    /// Runs every check for one property; a check that finds nothing returns no warning.
    static func warnings(_ yardi: YardiSync) throws -> [SyncWarning] {
        let unitList = try YardiUnits.unitList(yardi)
        var warnings = snapshotWarnings(yardi, unitList: unitList)
        if let date = yardi.snapshots.dates["GetUnitInformation"], case .none(let reason) = unitList {
            warnings.append(SyncWarning(check: "units_missing", subject: "GetUnitInformation", expected: "units",
                                        actual: "none", message: "the GetUnitInformation snapshot of \(date) holds no unit: "
                                            + "total units, occupancy, exposure, vacancy and pricing are missing, not zero "
                                            + "(\(reason)); delinquency and the ledger reports answer from the ledger"))
        }
        if case .ilsFeed(let listed, let declared) = unitList {
            let available = yardi.snapshots.dates["AvailableUnits_Login"] ?? "?"
            warnings.append(SyncWarning(
                check: "unit_source", subject: "AvailableUnits_Login", expected: "GetUnitInformation", actual: "AvailableUnits_Login",
                message: "GetUnitInformation lists no unit; the \(listed) units are taken "
                    + "from the AvailableUnits_Login marketing feed of \(available) (ILS_Unit rows: floor plan, market rent, "
                    + "occupancy and leased status, vacate and made-ready dates; no building, no floor)"))
            if listed != declared {
                warnings.append(SyncWarning(
                    check: "ils_unit_count", subject: "AvailableUnits_Login", expected: "\(declared)", actual: "\(listed)",
                    message: "AvailableUnits_Login declares \(declared) units "
                        + "(Property/Information/UnitCount) but lists \(listed); the \(listed) listed units are counted "
                        + "(each has its own status), \(listed - declared > 0 ? "\(listed - declared) more" : "\(declared - listed) fewer") "
                        + "than declared"))
            }
        }
        for (check, sql) in checks {
            // One warning per subject (unified_sync_warnings' key), even if a payload lists a unit twice.
            var subjects = Set<String>()
            for row in try yardi.rows(sql) where subjects.insert(row[0].textValue ?? "").inserted {
                warnings.append(SyncWarning(check: check, subject: row[0].textValue ?? "",
                                            expected: row[1].textValue ?? "", actual: row[2].textValue ?? "",
                                            message: row[3].textValue ?? check))
            }
        }
        return warnings
    }

    /// What `units_missing` says (the metrics repeat it when they leave the property out).
    static let unitsMissing = """
        no GetUnitInformation snapshot loaded (the call failed or was not fetched): residents, leases, ledger and \
        guest activity are synced; total units, occupancy, exposure, vacancy and pricing are missing, not zero
        """

    /// Operations read from another date than the property date, or not loaded at all (also when the units are
    /// missing: the metrics leave a property out by the operation it lacks, e.g. no guest activity, no funnel).
    static func snapshotWarnings(_ yardi: YardiSync, unitList: YardiUnits.UnitList) -> [SyncWarning] {
        var warnings: [SyncWarning] = []
        if yardi.snapshots.dates["GetUnitInformation"] == nil, case .none(let reason) = unitList {
            warnings.append(SyncWarning(check: "units_missing", subject: "GetUnitInformation", expected: "a snapshot",
                                        actual: "none", message: unitsMissing + " (\(reason))"))
        }
        // Lease charges are month snapshots, dated the first of their PostMonth (YardiFetch).
        let monthStart = String(yardi.asOf.iso.prefix(8)) + "01"
        return warnings + YardiSnapshots.operations.dropFirst().compactMap { operation, _ in
            let date = yardi.snapshots.dates[operation]
            guard date != yardi.asOf.iso, !(operation == "GetResidentLeaseCharges_Login" && date == monthStart) else { return nil }
            let message = date.map {
                "\(operation) is read from its \($0) snapshot, the property date (GetUnitInformation) is \(yardi.asOf.iso)"
            } ?? "no \(operation) snapshot loaded: the unified rows it feeds are empty"
            return SyncWarning(check: "snapshot", subject: operation, expected: yardi.asOf.iso, actual: date ?? "none",
                               message: message)
        }
    }

    /// (check name, SQL returning subject, expected, actual, message).
    static let checks: [(String, String)] = [
        ("unit_status_available_units", unitStatusAvailableUnits),
        ("unit_economic_status", unitEconomicStatus),
        ("made_ready", madeReady),
        ("notice_move_out", noticeMoveOut),
        ("current_resident", currentResident),
        ("ledger_balance", ledgerBalance),
        ("ledger_window", YardiDelinquency.windowGaps),
        ("ledger_tenant", ledgerTenant),
        ("guest_event_type", guestEventType),
    ]

    static let unitStatusAvailableUnits = """
        WITH \(YardiUnits.statusVocabulary)
        SELECT u.unit_code, u.economic_status_description, a.economic_status_description,
               printf('unit %s: GetUnitInformation says ''%s'', AvailableUnits says ''%s'' (GetUnitInformation wins)',
                      u.unit_code, u.economic_status_description, a.economic_status_description)
        FROM yardi_raw.yardi_units u
        JOIN yardi_raw.yardi_available_units a
          ON a.property_id = u.property_id AND a.as_of_date = :available_snapshot AND a.unit_code = u.unit_code
        LEFT JOIN yardi_unit_status su ON su.status_text = lower(trim(u.economic_status_description))
        LEFT JOIN yardi_unit_status sa ON sa.status_text = lower(trim(a.economic_status_description))
        WHERE u.property_id = :property AND u.as_of_date = :units_snapshot AND :available_snapshot_date = :units_snapshot_date
          AND a.economic_status_description IS NOT NULL
          AND (coalesce(su.status, lower(trim(u.economic_status_description)))
                   IS NOT coalesce(sa.status, lower(trim(a.economic_status_description)))
               OR su.is_ready IS NOT sa.is_ready)
        ORDER BY u.source_row
        """

    static let unitEconomicStatus = """
        SELECT u.unit_number, r.economic_status, u.status,
               printf('unit %s: UnitEconomicStatus is ''%s'' but the status text ''%s'' makes it %s (the text wins)',
                      u.unit_number, r.economic_status, u.pms_status, u.status)
        FROM unified_units u
        JOIN yardi_raw.yardi_units r
          ON r.property_id = u.unified_property_id AND r.as_of_date = :units_snapshot AND r.unit_code = u.unit_number
        WHERE u.unified_property_id = :property AND r.economic_status IS NOT NULL
          AND CASE lower(r.economic_status) WHEN 'model' THEN 'model' WHEN 'admin' THEN 'model'
                                            WHEN 'down' THEN 'down' ELSE 'rentable' END
              IS NOT CASE WHEN u.status IN ('model', 'down') THEN u.status ELSE 'rentable' END
        ORDER BY u.unit_number
        """

    static let madeReady = """
        SELECT u.unit_number, CASE u.is_ready WHEN 1 THEN 'made ready' ELSE 'not ready' END,
               coalesce(a.made_ready_date, 'no MadeReadyDate'),
               printf('unit %s: the status text ''%s'' says %s, AvailableUnits has %s',
                      u.unit_number, u.pms_status, CASE u.is_ready WHEN 1 THEN 'ready' ELSE 'not ready' END,
                      coalesce('MadeReadyDate ' || a.made_ready_date, 'no MadeReadyDate'))
        FROM unified_units u
        JOIN yardi_raw.yardi_available_units a
          ON a.property_id = u.unified_property_id AND a.as_of_date = :available_snapshot AND a.unit_code = u.unit_number
        WHERE u.unified_property_id = :property AND :available_snapshot_date = :units_snapshot_date
          AND u.status IN ('vacant', 'vacant_leased')
          AND (u.is_ready = 1) <> (a.made_ready_date IS NOT NULL)
        ORDER BY u.unit_number
        """

    static let noticeMoveOut = """
        SELECT u.unit_number,
               CASE WHEN u.is_on_notice THEN 'a move-out date' ELSE 'no notice' END,
               CASE WHEN u.is_on_notice THEN 'none' ELSE 'resident ' || r.resident_id || ' ' || r.pms_status END,
               CASE WHEN u.is_on_notice
                    THEN printf('unit %s is ''%s'' but neither GetResidentsByStatus nor AvailableUnits gives a move-out date: exposure 30/60 leave it out',
                                u.unit_number, u.pms_status)
                    ELSE printf('unit %s is ''%s'' but its household %s is ''%s'' with move-out %s (the unit status wins)',
                                u.unit_number, u.pms_status, r.resident_id, r.pms_status, coalesce(r.move_out_date, 'none')) END
        FROM unified_units u
        LEFT JOIN unified_residents r ON r.unified_property_id = u.unified_property_id AND r.resident_id = u.resident_id
        WHERE u.unified_property_id = :property
          AND ((u.is_on_notice AND u.notice_for_date IS NULL)
               OR (u.status = 'occupied' AND (r.status = 'notice' OR r.move_out_date > :as_of)))
        ORDER BY u.unit_number
        """

    static let currentResident = """
        SELECT u.unit_number, 'a Current/Notice household', coalesce(u.resident_id, 'none'),
               printf('unit %s is ''%s'' but GetResidentsByStatus has %s: its in-place rent is unknown',
                      u.unit_number, u.pms_status,
                      CASE WHEN u.resident_id IS NULL THEN 'no household in possession'
                           ELSE 'no resident ' || u.resident_id END)
        FROM unified_units u
        LEFT JOIN unified_residents r ON r.unified_property_id = u.unified_property_id AND r.resident_id = u.resident_id
        WHERE u.unified_property_id = :property AND u.is_occupied AND r.resident_id IS NULL
        ORDER BY u.unit_number
        """

    /// Households whose charges' `AmountPaid` + `BalanceDue` do not add up to their `Amount` (beyond a cent), from the
    /// property's households (`YardiHouseholds.make`, made once for every reader).
    static let ledgerBalance = """
        SELECT tenant_code, printf('%.2f', charged_cents / 100.0), printf('%.2f', (charge_applied_cents + charge_due_cents) / 100.0),
               printf('household %s: charges total %.2f but AmountPaid %.2f + BalanceDue %.2f = %.2f: the charges'' own figures disagree (the aging follows BalanceDue)',
                      tenant_code, charged_cents / 100.0, charge_applied_cents / 100.0, charge_due_cents / 100.0,
                      (charge_applied_cents + charge_due_cents) / 100.0)
        FROM yardi_household
        WHERE abs(charged_cents - charge_applied_cents - charge_due_cents) > 1
        ORDER BY tenant_code
        """

    static let ledgerTenant = """
        SELECT 'GetResidentTransactions_Login', '0', count(*),
               printf('%d ledger rows name no tenant (CustomerID) and are left out of delinquency', count(*))
        FROM yardi_raw.yardi_transactions
        WHERE property_id = :property AND tenant_code IS NULL
        HAVING count(*) > 0
        """

    static let guestEventType = """
        WITH \(YardiActivity.eventTypes.cte)
        SELECT g.event_type, 'a known event type', count(*),
               printf('guest-card event type ''%s'' (%d events) is not in the Yardi rules: counted as other',
                      g.event_type, count(*))
        FROM yardi_raw.yardi_guest_activity g
        WHERE g.property_id = :property AND g.as_of_date = :guest_snapshot
          AND coalesce(lower(trim(g.event_type)), '') NOT IN (SELECT event_text FROM yardi_guest_event)
          AND coalesce(g.first_contact, 0) = 0
        GROUP BY g.event_type
        ORDER BY g.event_type
        """
}
