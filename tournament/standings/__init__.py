"""The standings: computed from confirmed results, shown as tables, charts and exports."""
