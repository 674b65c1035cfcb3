// Moved to components/ui (the dashboard's last movements use it too); kept so the statement's imports stay.
export { StatementDescription } from '../../components/ui/StatementDescription';
