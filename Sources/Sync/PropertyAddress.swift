import OwnerDashCore

/// unified_properties.address: the registry's `address` when it names one, else the street address the PMS itself
/// sends for the site, from its latest snapshot: RPX `getsitelist` (realpage_sites: `address1`, `city`, `state`,
/// `zip`) or Yardi `GetPropertyConfigurations` (yardi_properties: `address_line1`, `address_line2`, `city`,
/// `state`, `postal_code`), written `1200 Main St, Denver, CO 80202`.
enum PropertyAddress {
    /// The rule for a property's PMS; run after the property's row exists, inside its sync transaction.
    static func fromSite(_ pms: PMS) -> String {
        switch pms {
        case .realpage: realpage
        case .yardi: yardi
        }
    }

    static let realpage = """
        UPDATE unified_properties SET address = (
            SELECT nullif(trim(coalesce(address1, '') || coalesce(', ' || city, '')
                               || coalesce(', ' || state, '') || coalesce(' ' || zip, ''), ', '), '')
            FROM realpage_raw.realpage_sites
            WHERE property_id = :property AND address1 IS NOT NULL AND trim(address1) <> ''
            ORDER BY as_of_date DESC, source_row LIMIT 1)
        WHERE unified_property_id = :property AND :registry_address IS NULL
        """

    static let yardi = """
        UPDATE unified_properties SET address = (
            SELECT nullif(trim(coalesce(address_line1, '') || coalesce(' ' || nullif(trim(address_line2), ''), '')
                               || coalesce(', ' || city, '') || coalesce(', ' || state, '')
                               || coalesce(' ' || postal_code, ''), ', '), '')
            FROM yardi_raw.yardi_properties
            WHERE property_id = :property AND address_line1 IS NOT NULL AND trim(address_line1) <> ''
            ORDER BY as_of_date DESC, source_row LIMIT 1)
        WHERE unified_property_id = :property AND :registry_address IS NULL
        """
}
