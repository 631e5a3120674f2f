import Foundation
import OwnerDashCore

/// The data dictionary of unified.db: every table, view and column in words, written once here and generated into
/// docs/data-dictionary.md, the list of views in docs/analysts.md and the Datasette `metadata.json` written beside the database.
///
/// `UnifiedDictionaryTests` holds it against a migrated database: every table and view, every column, no more and no
/// fewer, so a migration that adds a column without saying what it means fails the tests.
public enum UnifiedDictionary {
    /// One table or view and what its columns mean.
    public struct Relation: Sendable {
        public var name: String
        public var isView: Bool
        public var description: String
        /// In the table's column order: name and meaning.
        public var columns: [(name: String, meaning: String)]
    }

    /// Meanings shared by every table that has the column (a table's own line overrides it).
    static let common: [String: String] = [
        "unified_property_id": "the property's registry key in report_definitions.json (`nexus_east`)",
        "property_name": "the property's name (unified_properties.name)",
        "as_of_date": "the date the figures are as of (`YYYY-MM-DD`; the property date of the sync)",
        "run_id": "the run that wrote the row (etl_runs.run_id; audit tables: audit_runs.run_id)",
        "resident_id": "the household's id in the PMS (RealPage resident/household id, Yardi tenant code)",
        "unit_number": "the unit as the PMS prints it",
        "lease_id": "the lease's id in the PMS",
        "source": "where the row comes from: `<pms>: <raw table or report>`",
        "charge_code": "the PMS's transaction code (`RENT`, `WATER`, `LATEFEE`)",
        "category": "RENT, UTILITIES, FEES or OTHER (charge_categories of report_definitions.json)",
        "category_known": "1 when the code is in charge_categories, 0 when it defaulted to OTHER",
        "description": "the PMS's description of the line",
        "pms_status": "the PMS's own status text, as sent",
        "floorplan": "floor plan code",
        "floorplan_name": "floor plan name",
        "balance_0_30": "owed 0-30 days, dollars",
        "balance_31_60": "owed 31-60 days, dollars",
        "balance_61_90": "owed 61-90 days, dollars",
        "balance_over_90": "owed over 90 days, dollars",
        "prepaid": "credit held, positive dollars",
        "current_balance": "net balance = delinquent - prepaid, dollars (negative: in credit)",
        "physical_occupancy": "occupied units / total units, percent 0-100",
        "leased_pct": "leased units / total units, percent 0-100",
        "exposure_30_pct": "units vacant or on notice, not leased, free within 30 days, percent of total",
        "month": "`YYYY-MM`",
    ]

    /// Every relation of unified.db, tables first, then views, each in schema order.
    public static let relations: [Relation] = tables + views

    static let tables: [Relation] = [
        table("unified_properties", "One row per property synced: its PMS, its date and where each part of its data comes from.", """
            unified_property_id
            name | the property's name
            pms_source | `realpage` or `yardi`
            pms_property_id | RealPage site id or Yardi property code
            address | street address, as the PMS sends it
            total_units | units synced (rows in unified_units)
            as_of_date | the property date of the current state (RealPage SysDate, Yardi's unit snapshot date)
            last_synced_at | when it was last synced (UTC)
            last_run_id | the run that last synced it
            ledger_source | where its tenant ledger comes from; NULL: it has none
            work_order_source | where its work orders come from; NULL: none
            expense_source | where its expenses come from; NULL: none
            ledger_coverage | `full` (charges, payments, schedule) or `partial` (balances per code and schedule)
            ledger_note | what a partial ledger cannot answer, in words
            income_source | where its income comes from (RealPage Income Statement, Monthly Income Summary or Cash Basis G/L); NULL: none
            floor_note | why unified_units.floor is empty for some or all units (Yardi sends no floor; RealPage only in RPX getunitlist); NULL: every unit has one
            sync_fingerprint | SHA-256 of what the last sync read: the property's loaded raw artifacts, its ledger's change log and removals, its registry entry, the category maps, the ownerdash build; an ingest or `ownerdash sync` that finds it unchanged (nothing loaded since) leaves the property's rows as they are
            ledger_whole_as_of | a ledger merged night by night from dated windows (RPX getresidentledger, Yardi GetResidentTransactions) that windows have brought past its last whole answer: that answer's as-of date. A posting entered after it and dated before every window since (an adjustment months back) is in the ledger from the next whole answer (weekly). NULL: the latest ledger answer was whole, the ledger is read whole every night (OneSite reports), or there is none
            """),
        table("unified_units", "Current state: one row per rentable unit, its status in one vocabulary and the flags that follow from it.", """
            unified_property_id
            unit_number
            pms_unit_id | the unit's id in the PMS
            building | building name or number
            floor | floor (NULL where the PMS sends none)
            floorplan
            floorplan_name
            bedrooms | count
            bathrooms | count
            sqft | square feet
            status | occupied, occupied_notice, occupied_notice_leased, vacant, vacant_leased, model, down
            pms_status
            is_occupied | 1 occupied (with or without notice), else 0; set from status
            is_leased | 1 Net Leased (occupied without notice, on notice pre-leased, vacant leased); set from status
            is_on_notice | 1 occupied on notice; set from status
            is_model | 1 model or admin unit; set from status
            is_down | 1 down (not rentable); set from status
            is_ready | vacant units: 1 made ready, 0 not; NULL while occupied
            market_rent | asking rent, dollars/month
            actual_rent | in-place rent of an occupied unit, dollars/month
            resident_id | the household in possession
            lease_id | its lease
            notice_for_date | move-out date of a unit on notice
            available_date | the date the PMS says the unit is available
            made_ready_date | the date the unit was made ready
            vacant_since | the day of the last move-out (vacant, model and down units)
            """),
        table("unified_residents", "Current state: one row per resident or household the PMS lists.", """
            unified_property_id
            resident_id | the household's id in the PMS (RealPage household id `ReshID`, Yardi tenant code); RealPage lists each other member of a household too, as `ReshID-MemberID` (unified_lease_residents names its role)
            unit_number
            lease_id
            name | `Last, First`
            first_name | first name
            last_name | last name
            email | e-mail address
            phone | phone number
            status | current, notice, future, former, applicant
            pms_status
            move_in_date | move-in date
            notice_date | the day notice was given
            move_out_date | move-out date (actual or planned)
            current_rent | rent of the current lease, dollars/month
            balance | ledger balance, dollars (negative: credit); NULL without a ledger
            """),
        table("unified_leases", "Current state: one row per lease.", """
            unified_property_id
            lease_id
            unit_number
            resident_id | the lease's head of household
            start_date | lease start
            end_date | lease end
            signed_date | the day it was signed (NULL where the PMS sends none)
            move_in_date | move-in date
            rent_amount | lease rent, dollars/month
            security_deposit | dollars
            status | current, future, past
            pms_status
            is_renewal | 1 when the lease renews an earlier one of the household
            is_month_to_month | 1 a current lease past its end date
            prior_lease_id | the lease it renews
            """),
        table("unified_lease_residents", "Current state: who is on each lease.", """
            unified_property_id
            lease_id
            resident_id
            role | head, co_resident, occupant, guarantor
            """),
        table("unified_activity", "Current state (a history): one row per leasing or resident event.", """
            id | row id
            unified_property_id
            event_date | the day of the event
            event_type | lead, tour, application, approval, denial, cancellation, lease_signed, move_in, move_out, notice, renewal, other
            pms_event_type | the PMS's word for the event
            unit_number
            party_name | prospect or resident, `Last, First`
            party_id | prospect id or resident id
            source | advertising source of a lead
            agent | leasing agent
            """),
        table("unified_occupancy_metrics", "Snapshot: one row per property and date, counted from unified_units (v_occupancy_latest: the latest).", """
            unified_property_id
            as_of_date
            total_units | units
            occupied_units | is_occupied = 1
            vacant_units | is_occupied = 0 (model and down included, as on the Box Score)
            vacant_leased | status vacant_leased
            vacant_not_leased | status vacant
            vacant_ready | rentable vacant units made ready
            vacant_not_ready | rentable vacant units not made ready
            aged_vacant_90 | rentable vacant units vacant more than 90 days
            aged_vacancy_cost | their market rent / 30.42 x days vacant, dollars
            on_notice | occupied units on notice
            notice_leased | of those, pre-leased
            notice_not_leased | of those, not pre-leased
            pre_leased | vacant leased + on notice leased
            model_units | is_model
            down_units | is_down
            leased_units | is_leased
            physical_occupancy
            leased_pct
            exposure_now | vacant not leased + on notice not leased
            exposure_30 | exposure_now whose notice ends within 30 days
            exposure_60 | exposure_now whose notice ends within 60 days
            exposure_now_pct | exposure_now / total units, percent
            exposure_30_pct
            exposure_60_pct | exposure_60 / total units, percent
            source
            run_id
            """),
        table("unified_pricing_metrics", "Snapshot: one row per property, date and floor plan (v_pricing_latest: the latest).", """
            unified_property_id
            as_of_date
            floorplan
            floorplan_name
            bedrooms | count
            units | units of the floor plan
            occupied_units | of those, occupied
            avg_sqft | mean square feet
            in_place_rent | mean actual rent of occupied units, dollars/month
            in_place_psf | in_place_rent / avg_sqft
            asking_rent | mean market rent, dollars/month
            asking_psf | asking_rent / avg_sqft
            loss_to_lease | sum of (market - in-place) over occupied units, dollars/month (positive: loss)
            run_id
            """),
        table("unified_delinquency_metrics", "Snapshot: one row per property and synced date with a delinquency source (Yardi's ledger, RealPage's Delinquent and Prepaid report; without one no row: unknown, not zero), the delinquency totals of that night's households (prune keeps these for every night).", """
            unified_property_id
            as_of_date
            residents | households in unified_delinquency that night (owing or in credit)
            residents_delinquent | of those, owing anything 0-30 days or older
            balance_0_30_cents | sum of balance_0_30, in cents
            balance_31_60_cents | in cents
            balance_61_90_cents | in cents
            balance_over_90_cents | in cents
            prepaid_cents | credit balances, in cents
            run_id
            ledger_whole_as_of | unified_properties.ledger_whole_as_of as that night's sync wrote it: the totals were summed from a ledger nightly windows had brought past its last whole answer, of this date (NULL: whole that night, a report, or a night synced before migration 65)
            """),
        table("unified_delinquency", "Snapshot: one row per property, date and household that owes or is in credit, for the nights prune keeps (v_delinquency_latest: the latest).", """
            unified_property_id
            as_of_date
            resident_id
            unit_number
            name | `Last, First`
            resident_status | the household's unified status
            current_balance
            balance_0_30
            balance_31_60
            balance_61_90
            balance_over_90
            prepaid
            source
            run_id
            under_eviction | 1 when the PMS marks the household under eviction (RealPage: the Delinquent and Prepaid legend's `*`; Yardi: status Eviction), 0 when not, NULL when it says nothing
            in_collections | 1 when a former resident's account is placed with a collection agency (RealPage: the Collections Report's In Coll. mark for the account), 0 when that report lists it as not, NULL when no report says (every Yardi row)
            """),
        table("unified_sync_warnings", "Current state: disagreements between two sources of the same fact, beyond tolerance.", """
            unified_property_id
            as_of_date
            check_name | the cross-check
            subject | what it is about (unit, tenant code, operation)
            expected | one source's value
            actual | the other's
            message | both values in words
            run_id
            """),
        table("etl_runs", "One row per ingest, sync or demo run, refused ones included (`ownerdash runs`).", """
            run_id | `20261122T040512Z-3f9a`
            trigger | ingest, schedule, sync, demo
            command | the command line (never a secret)
            as_of_date | the date asked of the sources
            started_at | UTC
            finished_at | UTC
            status | running, succeeded, partial, failed, abandoned, refused
            pid | process id
            host | host name
            properties | properties asked for
            artifacts_fetched | artifacts landed
            rows_loaded | raw rows newly loaded
            properties_synced | properties synced
            failures | failed items
            warnings | warnings
            detail | why the run ended as it did (refused: who held the lock)
            """),
        table("etl_run_items", "One row per fetched artifact, loaded artifact and synced property of a run.", """
            id | row id
            run_id
            property_id | the property's registry key
            stage | fetch, load, sync
            artifact | the artifact's name in the run
            status | succeeded, failed, skipped
            rows | rows loaded or synced
            duration_ms | milliseconds
            error | why it failed, in one line
            """),
        table("unified_charges", "Current state (full tenant ledger): one row per posted charge.", """
            unified_property_id
            charge_id | the PMS's transaction id
            resident_id
            lease_id
            unit_number
            charge_code
            description
            category
            category_known
            period | the month the charge is for, `YYYY-MM`
            charge_date | posting date
            due_date | due date
            amount | dollars
            amount_paid | dollars applied to it
            balance | dollars still open
            """),
        table("unified_payments", "Current state (full tenant ledger): one row per payment.", """
            unified_property_id
            payment_id | the PMS's transaction id
            resident_id
            lease_id
            unit_number
            payment_date | the day it was received
            period | its month, `YYYY-MM`
            amount | dollars
            reference | check or confirmation number
            payment_type | as the PMS names it
            """),
        table("unified_recurring_charges", "Current state: each lease's recurring-charge schedule.", """
            unified_property_id
            lease_id
            resident_id
            unit_number
            charge_code
            description
            category
            category_known
            amount | dollars per month
            start_date | first day it applies
            end_date | last day it applies (NULL: open)
            """),
        table("audit_runs", "One row per `ownerdash audit run`: its window and portfolio totals.", """
            run_id | the audit run's number
            started_at | UTC
            finished_at | UTC
            as_of_date | the date charges are judged due on
            first_month | first month audited
            last_month | last month audited
            properties | JSON array of the registry keys asked for
            leases | leases audited
            lines | lease, charge code and month lines audited
            matched | lines posted as scheduled
            missing | scheduled, not posted
            unexpected | posted, not scheduled
            undercharge | posted less than scheduled
            overcharge | posted more than scheduled
            undercharge_total | dollars
            overcharge_total | dollars
            """),
        table("audit_run_properties", "Per audit run and property: the same totals (NULL counts for a property without a ledger).", """
            run_id
            unified_property_id
            has_ledger | 1 when the property has a tenant ledger to audit
            as_of_date | the date charges were judged due on
            leases | leases audited
            lines | lines audited
            matched | lines posted as scheduled
            missing | scheduled, not posted
            unexpected | posted, not scheduled
            undercharge | posted less
            overcharge | posted more
            undercharge_total | dollars
            overcharge_total | dollars
            not_audited | lines posted on leases without any schedule (a lease that states its rent has its rent audited against it: its other codes are counted here)
            not_audited_reason | why the property was not audited
            not_audited_leases | leases without any schedule with lines not audited (NULL: runs before migration 41)
            not_audited_amount | dollars posted on those lines (NULL: runs before migration 41)
            ledger_whole_as_of | unified_properties.ledger_whole_as_of when the run audited the property: postings entered since, dated before every nightly window, were not seen (NULL: none, or runs before migration 60)
            """),
        table("audit_lease_charges", "Per audit run, lease and charge code: months audited, matched and flagged.", """
            run_id
            unified_property_id
            lease_id
            resident_id
            unit_number
            charge_code
            months | months audited
            matched | months posted as scheduled
            exceptions | months flagged
            expected_total | scheduled dollars
            posted_total | posted dollars
            expected_from | schedule (unified_recurring_charges), or lease rent (unified_leases.rent_amount) for a lease without any schedule line (NULL: runs before migration 61)
            """),
        table("audit_results", "Per audit run: every exception, one row per lease, charge code and month.", """
            run_id
            unified_property_id
            lease_id
            resident_id
            unit_number
            charge_code
            month
            expected | scheduled dollars
            posted | posted dollars
            variance | posted - expected, dollars
            kind | missing, unexpected, undercharge, overcharge
            """),
        table("audit_resolutions", "What operators did about an audit exception (append-only; the latest event of a key wins).", """
            event_id | event number
            unified_property_id
            lease_id
            charge_code
            month
            event | resolved or reopened
            fix | what was fixed
            action | what was done
            by_name | who did it
            at | when (UTC)
            note | free text
            run_id | the latest audit run when it was recorded
            """),
        table("unified_work_orders", "Current state: one row per work order (RealPage make-readies, Yardi service requests).", """
            unified_property_id
            work_order_id | the PMS's id (RealPage make-ready turns: `MR-<unit>-<date vacated>`, `MR-<unit>-WO<request>` for a closed turn printed without a vacate date)
            unit_number
            category | the work's category
            description
            status | open or closed
            pms_status
            opened_date | opened
            due_date | due
            completed_date | completed (closed work orders)
            days_to_complete | completed_date - opened_date, days
            source
            """),
        table("unified_expenses", "Current state: operating expenses per month and GL account.", """
            unified_property_id
            month
            gl_account | GL account number
            account_name | GL account name
            gl_category | the account's category (GL categories of report_definitions.json)
            category_known | 1 when the account's category is known, 0 when it defaulted
            amount | dollars, as the income statement counts them
            source
            source_report | the report the month was read from (realpage_raw loaded_artifacts.report_type)
            source_as_of | that report snapshot's as-of date
            """),
        table("unified_income", "Current state: RealPage income per month and GL account, one report per month.", """
            unified_property_id
            month
            gl_account | GL account number
            account_name | GL account name
            gl_category | the account's income category
            amount | dollars earned as the report counts them (a concession or credit line is negative)
            source
            source_report | the report the month was read from (Income Statement, Monthly Income Summary, Cash Basis G/L)
            source_as_of | that report snapshot's as-of date
            """),
        table("unified_work_order_lines", "Current state: the work-order lines of a closed RealPage make-ready turn (Closed Make Ready).", """
            unified_property_id
            work_order_id | the turn's id in unified_work_orders
            line_id | the work order's number on the report
            description
            completed_date | when the line's work was completed
            amount | dollars charged
            minutes_worked | time worked, minutes
            source
            """),
        table("unified_make_ready_periods", "Current state: OneSite's Make Ready Analysis per month.", """
            unified_property_id
            month
            units_made_ready | units made ready in the month
            total_minutes | total make-ready time, minutes
            renovations | renovations in the month
            labor_cost | dollars
            parts_cost | dollars
            total_cost | dollars
            source
            source_as_of | the Make Ready Analysis snapshot's as-of date
            """),
        table("unified_occupancy_history", "Backfilled month ends (`ownerdash backfill`): occupancy rebuilt from the residents' move-in, notice and move-out dates; a synced snapshot of the same date wins in the trends.", """
            unified_property_id
            as_of_date | the month end
            total_units | units
            occupied_units | units occupied that day
            vacant_units | units vacant that day
            vacant_leased | vacant units with a signed lease starting later
            on_notice | occupied units whose household had given notice
            notice_leased | of those, units already leased to the next household
            leased_units | occupied without notice + vacant leased + notice leased
            model_units | model units
            down_units | down units
            physical_occupancy
            leased_pct
            source
            run_id | the backfill run
            """),
        table("notices_sent", "History: every debtor notice delivered (what a later send skips).", """
            id | row id
            debtor_key | the debtor's identity (`email:...`, `name-phone:...`, `resident:property/id`)
            debtor_name | name
            email | e-mail address
            phone | phone number
            properties | space-separated registry keys
            resident_ids | space-separated resident ids
            total | amount owed in the notice, dollars
            content_hash | SHA-256 of the notice text
            channel | how it was sent
            destination | where it was sent (no secret)
            sent_at | UTC
            http_status | the destination's answer
            attempts | tries
            run_id | the ingest run that sent it
            """),
        table("unified_ledger_balances", "Current state (partial tenant ledger): per household and transaction code, its balance and aging.", """
            unified_property_id
            resident_id
            unit_number
            charge_code
            description
            category
            category_known
            as_of_date
            balance | delinquent - prepaid, dollars
            delinquent | dollars
            balance_0_30
            balance_31_60
            balance_61_90
            balance_over_90
            prepaid
            source
            """),
        table("unified_household_balances", "Current state (full tenant ledger): each household's balance on the property's date (unified_properties.as_of_date).", """
            unified_property_id
            resident_id
            charges | charges posted up to that date, dollars
            payments | payments up to that date, dollars
            balance | charges - payments, dollars
            """),
        table("sync_checks", "Each sync's reconciliations of the unified figures with the vendor's own, per run.", """
            unified_property_id
            as_of_date
            run_id
            check_name | the check
            measure | what is compared
            expected_source | where the vendor's figure comes from
            expected | the vendor's figure
            actual_source | where the unified figure comes from
            actual | the unified figure
            difference | actual - expected
            status | passed, failed, skipped
            detail | in words
            """),
        table("unpublished_changes", "Rows each sync changed since the property was last published to PostgreSQL (only with --database-url).", """
            unified_property_id | property key
            table_name | the unified table the row is in
            row_key | the row's key after the property, as a JSON array; for a table kept per night, the night's as_of_date
            """),
        table("published_syncs", "The sync whose rows the PostgreSQL server held after the property's last publication from this host.", """
            unified_property_id | property key
            synced_run | the run of that sync (unified_properties.last_run_id then)
            """),
        table("ledger_sync_marks", "Where each property's last sync left its merged ledger (RPX or Yardi): the next sync rewrites only the charges and payments of ledger rows written since (this host's own; not published).", """
            unified_property_id | property key
            ledger | the raw ledger table read (realpage_ledger, yardi_transactions)
            lineage_id | the newest raw_lineage id among the property's ledger rows then
            lineage | that lineage row's run, artifact and digest, to know it is still the same row
            rules | SHA-256 of the build and the charge categories that projected the rows
            removals | the rows the property's merged ledger had lost then (the raw ledger_removals count); NULL: not counted
            """),
        table("sync_input_marks", "What the rule of each table a sync keeps while its inputs are unchanged read at the property's last sync (Yardi's recurring charges: the lease-charge statements); this host's own, not published.", """
            unified_property_id | property key
            table_name | the unified table kept (unified_recurring_charges)
            inputs | SHA-256 of what its rule read: the raw snapshots and rows, the build, the charge categories
            """),
        table("sync_activity_marks", "What a RealPage property's events (unified_activity) were computed from at its last sync: the next sync computes again only the report events of the days a snapshot changed since and the resident events of the households whose RPX rows moved since; this host's own, not published.", """
            unified_property_id | property key
            inputs | SHA-256 of the build, whether RPX gave the residents, the units' numbers the report events are matched to and the RPX unit ids' numbers the resident events are
            as_of_date | the property date then
            snapshots | one line per Activity report and Leasing Activity Detail snapshot read: report, as-of date, first day, rows, lowest and highest raw row id
            unknown_types | JSON array of the Activity report types no event type names, per day read: {day, type, rows}
            resident_lists | the getresidentlistinfo and getleaseinfo snapshots read, one line each: list, the rows' as-of date, lowest and highest raw row id, rows
            """),
        table("sync_snapshot_marks", "The snapshots a rule that computes by snapshot read at the property's last sync (RealPage's closed make-ready turns, its expenses and income by month): the next sync computes again only what the snapshots loaded since list or cover; this host's own, not published.", """
            unified_property_id | property key
            rule | the rule (closed_turns, expense_months)
            inputs | SHA-256 of the build that computed the rows (and for expense_months the GL categories)
            snapshots | one line per snapshot loaded: (its report,) as-of date, the run that loaded it and its artifact's SHA-256
            """),
        table("sync_activity_prospects", "Each prospect of a RealPage property's report events and the day of their first contact read (the lead rank's memory of the days a sync does not compute again); this host's own, not published.", """
            unified_property_id | property key
            prospect_key | the prospect's name, trimmed and in lower case (the reports' only prospect key)
            first_date | the day of the prospect's first contact row read
            """),
        table("sync_yardi_households", "Each Yardi household's sums over the merged ledger (yardi_transactions) that do not move with the property date, as the property's last sync summed them: the next sync by change sums again only the households of a transaction written since; this host's own, not published.", """
            unified_property_id | property key
            tenant_code | the household (Yardi tenant code)
            unit_code | its transactions' greatest unit code
            transactions | how many transactions the ledger holds for it
            window_cents | its charges less its payments, in cents
            charged_cents | its charges, in cents
            paid_cents | its payments, in cents
            charge_applied_cents | its charges' AmountPaid, in cents
            charge_due_cents | its charges' BalanceDue, in cents
            """),
        table("sync_realpage_postings", "Each RealPage household's charges and payments (unified_charges but the balance-forward lines, unified_payments) summed as the property's last sync left them: the balance-forward rule weighs a household's stated Balance against them, and the next sync by change adds to them only what it rewrote; this host's own, not published.", """
            unified_property_id | property key
            resident_id | the household (RPX ReshID)
            postings | how many charges and payments it has
            cents | its charges less its payments, in cents
            open_cents | its charges' open balances, in cents
            """),
        table("sync_household_sum_marks", "The merged ledger's newest lineage when the property's household sums (sync_yardi_households, sync_realpage_postings) were kept; this host's own, not published.", """
            unified_property_id | property key
            lineage_id | the newest raw_lineage id among the property's ledger rows then
            """),
        table("sync_yardi_gap_baselines", "A Yardi property's window gaps (ledger_window warnings) as its last whole ledger left them: the ledger_window_gaps check fails on a gap new or larger since; this host's own, not published.", """
            unified_property_id | property key
            whole_as_of | the property date of that whole ledger (unified_properties.ledger_whole_as_of while windows bring it forward)
            gaps | JSON object: tenant code -> its gap in cents (window balance less Σ BalanceDue)
            """),
        table("forecast_models", "The delinquency forecast's trained models (ownerdash forecast train); the latest is used (docs/forecast.md).", """
            model_id | increasing; the highest is the model in use
            trained_at | when (UTC)
            properties | JSON array of the property keys whose households it learned from
            training_from | first month end of its training examples
            training_to | last month end of its training examples
            outcomes_to | last next-month end it saw (no forecast of a month end up to this one is out of sample)
            household_months | training examples (households × month ends)
            behind | of them, behind more than 30 days at the next month end
            features | JSON array of the feature names in the model's column order
            xgboost_version | libxgboost that trained it
            training_seconds | time to train
            model_json | XGBoost's JSON model document
            backtest_months | months the backtest run before training predicted (NULL: trained without --backtest)
            backtest_auc | the trees' ROC AUC over those months
            baseline | the best naive baseline of that backtest
            baseline_auc | its ROC AUC
            backtest_passes | 1 when backtest_auc beat baseline_auc by the required margin (0.02): only then may users see the forecast
            """),
        table("schema_migrations", "The schema's migrations applied to this database.", """
            version | migration number (PRAGMA user_version is the highest)
            name | what it did
            applied_at | when (UTC)
            """),
    ]

    static let views: [Relation] = [
        view("v_properties", "Each property in one row: its sources, its date, its latest occupancy and delinquency.", """
            unified_property_id
            name | the property's name
            pms_source | `realpage` or `yardi`
            pms_property_id | RealPage site id or Yardi property code
            address | street address
            total_units | units synced
            as_of_date | the property date
            last_synced_at | UTC
            last_run_id | the run that last synced it
            ledger_source | where its tenant ledger comes from; NULL: none
            ledger_coverage | `full` or `partial`
            work_order_source | where its work orders come from
            expense_source | where its expenses come from
            physical_occupancy
            leased_pct
            exposure_30_pct
            delinquent_households | households in the latest delinquency snapshot
            delinquent_balance | their net balance, dollars, exact to the cent
            """),
        view("v_units", "Every unit with its property, status flags and days vacant (unified_units).", """
            unified_property_id
            property_name
            as_of_date | the property date
            unit_number
            building | building
            floor | floor
            floorplan
            floorplan_name
            bedrooms | count
            bathrooms | count
            sqft | square feet
            status | unified status (see unified_units)
            pms_status
            is_occupied | 1 occupied
            is_leased | 1 Net Leased
            is_on_notice | 1 on notice
            is_model | 1 model or admin
            is_down | 1 down
            is_ready | vacant: 1 made ready, 0 not
            market_rent | dollars/month, rounded to cents
            actual_rent | dollars/month, rounded to cents
            resident_id
            lease_id
            notice_for_date | move-out date on notice
            available_date | available date
            made_ready_date | made-ready date
            vacant_since | last move-out
            days_vacant | as_of_date - vacant_since, days
            """),
        view("v_occupancy_latest", "Each property's latest occupancy snapshot, one row per property.", """
            unified_property_id
            property_name
            pms_source | `realpage` or `yardi`
            as_of_date
            total_units | units
            occupied_units | occupied
            vacant_units | vacant (model and down included)
            vacant_leased | vacant, leased
            vacant_not_leased | vacant, not leased
            vacant_ready | rentable vacant, made ready
            vacant_not_ready | rentable vacant, not ready
            aged_vacant_90 | vacant more than 90 days
            aged_vacancy_cost | their cost, dollars, rounded to cents
            on_notice | on notice
            notice_leased | on notice, pre-leased
            notice_not_leased | on notice, not pre-leased
            pre_leased | vacant leased + on notice leased
            model_units | model
            down_units | down
            leased_units | Net Leased
            physical_occupancy
            leased_pct
            exposure_now | vacant not leased + on notice not leased
            exposure_30 | of those, free within 30 days
            exposure_60 | of those, free within 60 days
            exposure_now_pct | percent of total
            exposure_30_pct
            exposure_60_pct | percent of total
            source
            run_id
            """),
        view("v_pricing_latest", "Each property's latest pricing snapshot, one row per floor plan.", """
            unified_property_id
            property_name
            as_of_date
            floorplan
            floorplan_name
            bedrooms | count
            units | units
            occupied_units | occupied
            avg_sqft | mean square feet
            in_place_rent | dollars/month, rounded to cents
            in_place_psf | per square foot
            asking_rent | dollars/month, rounded to cents
            asking_psf | per square foot
            loss_to_lease | dollars/month, rounded to cents (positive: loss)
            run_id
            """),
        view("v_delinquency_latest", "Each property's latest delinquency snapshot, one row per household (money rounded to cents).", """
            unified_property_id
            property_name
            as_of_date
            resident_id
            unit_number
            name | `Last, First`
            resident_status | unified status
            current_balance
            balance_0_30
            balance_31_60
            balance_61_90
            balance_over_90
            prepaid
            source
            run_id
            """),
        view("v_delinquency_totals_latest", "The latest delinquency snapshot totalled per property, exact to the cent.", """
            unified_property_id
            property_name
            as_of_date
            households | households in the snapshot
            households_owing | of those, with a positive balance
            current_balance | sum, dollars
            balance_0_30 | sum, dollars
            balance_31_60 | sum, dollars
            balance_61_90 | sum, dollars
            balance_over_90 | sum, dollars
            prepaid | sum, dollars
            """),
        view("v_ledger_monthly", "The full tenant ledger per property and month: charged (by the charge's period) and paid (by the payment's period), exact to the cent.", """
            unified_property_id
            month
            charges | charges posted for the month
            charged | their sum, dollars
            rent_charged | of which RENT, dollars
            payments | payments of the month
            paid | their sum, dollars
            net | charged - paid, dollars
            """),
        view("v_expenses_monthly", "Operating expenses per property, month and GL category, exact to the cent.", """
            unified_property_id
            month
            gl_category | GL category
            accounts | GL accounts in it
            amount | sum, dollars
            """),
    ]

    private static func table(_ name: String, _ description: String, _ columns: String) -> Relation {
        Relation(name: name, isView: false, description: description, columns: parse(columns, of: name))
    }

    private static func view(_ name: String, _ description: String, _ columns: String) -> Relation {
        Relation(name: name, isView: true, description: description, columns: parse(columns, of: name))
    }

    /// `name | meaning` per line; a bare name takes its meaning from `common`.
    private static func parse(_ text: String, of relation: String) -> [(name: String, meaning: String)] {
        text.split(separator: "\n").map { line in
            let parts = line.split(separator: "|", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            let name = parts[0]
            return (name, parts.count > 1 ? parts[1] : common[name] ?? "")
        }
    }

    // MARK: - Generated forms

    /// The dictionary as Markdown: one section per relation (docs/data-dictionary.md, between the data-dictionary markers).
    public static func markdown() -> String {
        var out = ""
        for relation in relations {
            out += "#### `\(relation.name)` (\(relation.isView ? "view" : "table"))\n\n\(relation.description)\n\n"
            out += "| column | meaning |\n| --- | --- |\n"
            for column in relation.columns {
                out += "| \(column.name) | \(column.meaning.replacingOccurrences(of: "|", with: "\\|")) |\n"
            }
            out += "\n"
        }
        return out
    }

    /// The views in one Markdown table (docs/analysts.md, between the analyst-views markers).
    public static func viewsMarkdown() -> String {
        var out = "| view | what it answers |\n| --- | --- |\n"
        for relation in views {
            out += "| `\(relation.name)` | \(relation.description) |\n"
        }
        return out
    }

    /// Datasette's metadata (https://docs.datasette.io/en/stable/metadata.html): a description per table and view and
    /// per column, under the database named after the file (`unified`).
    public static func datasetteMetadata() throws -> Data {
        var tables: [String: Any] = [:]
        for relation in relations {
            var columns: [String: String] = [:]
            for column in relation.columns { columns[column.name] = column.meaning }
            tables[relation.name] = ["description": relation.description, "columns": columns]
        }
        let metadata: [String: Any] = [
            "title": "OwnerDash unified.db",
            "description": "Properties, units, residents, leases, ledger and snapshots of every property, "
                + "unified across RealPage and Yardi. Money is dollars; views (v_*) round to the cent.",
            "databases": ["unified": ["tables": tables]],
        ]
        return try JSONSerialization.data(withJSONObject: metadata, options: [.prettyPrinted, .sortedKeys])
    }

    /// Writes `metadata.json` beside unified.db (Datasette: `datasette unified.db -m metadata.json`), only when its
    /// content changed, so a sync that changes nothing leaves the file alone.
    /// Once per process and path: an ingest opens unified.db several times, and the file depends only on the build.
    public static func writeMetadata(besides databasePath: String) throws {
        let path = (databasePath as NSString).deletingLastPathComponent + "/metadata.json"
        try metadataWritten.withLock { written in
            guard !written.contains(path) else { return }
            let data = try metadata.get()
            if FileManager.default.contents(atPath: path) != data {
                try data.write(to: URL(fileURLWithPath: path), options: .atomic)
            }
            written.insert(path)
        }
    }

    private static let metadata = Result { try datasetteMetadata() }
    private static let metadataWritten = Locked<Set<String>>([])
}
