/// Yardi work orders: the service requests of GetServiceRequest_Search (yardi_service_requests) -> unified_work_orders,
/// one row per request of the snapshot read (`:service_requests_snapshot`).
///
/// Raw columns -> unified columns:
/// - `service_request_id` -> work_order_id (a request listed twice in one snapshot keeps its last row);
/// - `unit_code` -> unit_number; `tenant_code` is not carried (the resident's row already links unit and tenant);
/// - `category` -> category (`General` when blank); turns arrive as category `Make Ready`, like RealPage's;
/// - `brief_description` -> description (`full_description`, else);
/// - `current_status` -> pms_status; status = closed when it is Completed / Complete / Closed (any case), else open;
/// - `requested_at` (ServiceRequestDate) -> opened_date, its date part;
/// - `completed_at` (the last StatusHistory `Completed` TimeStamp) -> completed_date, its date part; a closed request
///   without one falls back to `updated_at` (UpdateDate), the moment it last changed;
/// - days_to_complete = completed_date − opened_date in days; due_date is NULL (Voyager prints none);
/// - `full_description`, `status_history` stay in yardi_raw.db.
/// A Canceled / Cancelled request is no work done and no work to do: it is left out.
enum YardiMaintenance {
    static let source = "yardi: yardi_service_requests (GetServiceRequest_Search)"

    static let insert = """
        WITH requests AS (
            SELECT r.*,
                   lower(trim(coalesce(r.current_status, ''))) IN ('completed', 'complete', 'closed') AS is_closed,
                   row_number() OVER (PARTITION BY r.service_request_id ORDER BY r.source_row DESC) AS pick
            FROM yardi_raw.yardi_service_requests r
            WHERE r.property_id = :property AND r.as_of_date = :service_requests_snapshot
              AND lower(trim(coalesce(r.current_status, ''))) NOT IN ('canceled', 'cancelled')
        ),
        dated AS (
            SELECT *, substr(requested_at, 1, 10) AS opened,
                   CASE WHEN is_closed THEN substr(coalesce(completed_at, updated_at), 1, 10) END AS completed
            FROM requests WHERE pick = 1
        )
        INSERT INTO unified_work_orders (
            unified_property_id, work_order_id, unit_number, category, description, status, pms_status, opened_date,
            due_date, completed_date, days_to_complete, source)
        SELECT :property, service_request_id, unit_code, coalesce(nullif(trim(category), ''), 'General'),
               coalesce(brief_description, full_description),
               CASE WHEN completed IS NOT NULL THEN 'closed' ELSE 'open' END, current_status, opened, NULL, completed,
               CAST(round(julianday(completed) - julianday(opened)) AS INTEGER), :source
        FROM dated
        """
}
